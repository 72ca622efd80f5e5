import type { HubConnection } from './hub-connection.js';

/** Role that lets the console's own Mosquitto account send requests to devices. */
export const CONSOLE_ROLE = 'fleetlink-console';
export const deviceRole = (deviceId: string) => `fl-device-${deviceId}`;

const exists = (error?: string) => !!error && /already|exist/i.test(error);

async function run(conn: HubConnection, commands: Record<string, unknown>[], tolerateExisting = true) {
  const responses = await conn.dynsec(commands);
  const failed = responses.find((r) => r.error && !(tolerateExisting && exists(r.error)));
  if (failed) throw new Error(`dynamic-security ${failed.command}: ${failed.error}`);
  return responses;
}

const topicAcls = (rolename: string, pattern: string) =>
  ['publishClientSend', 'publishClientReceive', 'subscribePattern', 'unsubscribePattern'].map((acltype) => ({
    command: 'addRoleACL',
    rolename,
    acltype,
    topic: pattern,
    allow: true,
  }));

/** Gives the console's account (a dynamic-security admin) the device topics too. */
export async function ensureConsoleRole(conn: HubConnection, username: string): Promise<void> {
  await run(conn, [{ command: 'createRole', rolename: CONSOLE_ROLE }]);
  await run(conn, topicAcls(CONSOLE_ROLE, 'fl/d/#'));
  await run(conn, [{ command: 'addClientRole', username, rolename: CONSOLE_ROLE }]);
}

/** Creates (or re-keys) the device's client with a role limited to `fl/d/{id}/#`. */
export async function provisionDevice(conn: HubConnection, deviceId: string, password: string): Promise<void> {
  const rolename = deviceRole(deviceId);
  await run(conn, [{ command: 'createRole', rolename }]);
  await run(conn, topicAcls(rolename, `fl/d/${deviceId}/#`));
  const [created] = await run(conn, [{ command: 'createClient', username: deviceId, password, roles: [{ rolename }] }]);
  if (exists(created?.error)) {
    await run(conn, [
      { command: 'setClientPassword', username: deviceId, password },
      { command: 'addClientRole', username: deviceId, rolename },
      { command: 'enableClient', username: deviceId },
    ]);
  }
}

/** Removes the device's client and role (device deleted or moved away). */
export async function removeDevice(conn: HubConnection, deviceId: string): Promise<void> {
  await conn.dynsec([
    { command: 'deleteClient', username: deviceId },
    { command: 'deleteRole', rolename: deviceRole(deviceId) },
  ]);
}
