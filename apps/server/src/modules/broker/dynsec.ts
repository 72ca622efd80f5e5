import { agentClientId, TOPIC_ROOT, topics } from '@fleetlink/contract';
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

const ACL_TYPES = ['publishClientSend', 'publishClientReceive', 'subscribePattern', 'unsubscribePattern'];
/** Everything on the topics of `pattern`, as a role's ACLs (createRole takes them inline). */
const aclsOn = (pattern: string) => ACL_TYPES.map((acltype) => ({ acltype, topic: pattern, allow: true }));
const topicAcls = (rolename: string, pattern: string) => aclsOn(pattern).map((acl) => ({ command: 'addRoleACL', rolename, ...acl }));

/** Gives the console's account (a dynamic-security admin) the device topics too. */
export async function ensureConsoleRole(conn: HubConnection, username: string): Promise<void> {
  await run(conn, [{ command: 'createRole', rolename: CONSOLE_ROLE }]);
  await run(conn, topicAcls(CONSOLE_ROLE, `${TOPIC_ROOT}/#`));
  await ensureClientRole(conn, username, CONSOLE_ROLE);
}

/**
 * Gives a client a role it may already have. Mosquitto 2.0 answers adding a role a client already
 * has with 'Internal error', so the role is added only when the client does not list it.
 */
async function ensureClientRole(conn: HubConnection, username: string, rolename: string): Promise<void> {
  const [found] = await run(conn, [{ command: 'getClient', username }], false);
  const roles = (found?.data as { client?: DynsecClient } | undefined)?.client?.roles ?? [];
  if (!roles.some((r) => r.rolename === rolename)) await run(conn, [{ command: 'addClientRole', username, rolename }]);
}

/**
 * Creates (or re-keys) the device's client with a role limited to `fl/d/{id}/#`, bound to the
 * device's own client id: Mosquitto then refuses that login with any other id, before it would
 * close the session holding that id (the console's, or another device's).
 */
export async function provisionDevice(conn: HubConnection, deviceId: string, password: string): Promise<void> {
  const rolename = deviceRole(deviceId);
  const clientid = agentClientId(deviceId);
  const own = topics.deviceAll(deviceId);
  // A new device is one message of two commands, the role with its ACLs and the client (it was six):
  // Mosquitto 2.0 rewrites its whole file after each command, so a fleet's enrollment costs the
  // square of its size (here ~60 ms of Mosquitto's CPU a command at 3,333 devices).
  const [role, created] = await run(conn, [
    { command: 'createRole', rolename, acls: aclsOn(own) },
    { command: 'createClient', username: deviceId, password, clientid, roles: [{ rolename }] },
  ]);
  // A role left by an earlier enrollment may lack ACLs (one stopped halfway): each added if missing.
  if (exists(role?.error)) await run(conn, topicAcls(rolename, own));
  if (exists(created?.error)) {
    await run(conn, [
      { command: 'setClientPassword', username: deviceId, password },
      { command: 'setClientId', username: deviceId, clientid },
      { command: 'enableClient', username: deviceId },
    ]);
    await ensureClientRole(conn, deviceId, rolename);
  }
}

/** Clients listed per dynamic-security message: each answer stays far below max_packet_size. */
const LIST_PAGE = 500;
/**
 * Client ids set per message. Mosquitto 2.0 rewrites its whole file after each command (~11 ms
 * each with 2,000 clients), so a message of 50 stays well within the answer timeout.
 */
const BIND_BATCH = 50;

/**
 * Binds device clients provisioned before client ids were bound (an upgraded console) to their
 * client ids; answers how many it bound. Device clients are those holding their own device role.
 */
export async function bindDeviceClientIds(conn: HubConnection): Promise<number> {
  const unbound: string[] = [];
  for (let offset = 0; ; offset += LIST_PAGE) {
    const [listed] = await run(conn, [{ command: 'listClients', verbose: true, count: LIST_PAGE, offset }], false);
    const clients = (listed?.data as { clients?: DynsecClient[] } | undefined)?.clients ?? [];
    for (const c of clients) if (!c.clientid && c.roles?.some((r) => r.rolename === deviceRole(c.username))) unbound.push(c.username);
    if (clients.length < LIST_PAGE) break;
  }
  for (let i = 0; i < unbound.length; i += BIND_BATCH) {
    await run(conn, unbound.slice(i, i + BIND_BATCH).map((username) => ({ command: 'setClientId', username, clientid: agentClientId(username) })), false);
  }
  return unbound.length;
}

interface DynsecClient {
  username: string;
  clientid?: string;
  roles?: { rolename: string }[];
}

/**
 * Removes the device's client and role; Mosquitto drops the client's connection with it. One the
 * broker does not have (any more) counts as removed; any other error fails.
 */
export async function removeDevice(conn: HubConnection, deviceId: string): Promise<void> {
  const responses = await conn.dynsec([
    { command: 'deleteClient', username: deviceId },
    { command: 'deleteRole', rolename: deviceRole(deviceId) },
  ]);
  const failed = responses.find((r) => r.error && !/not found/i.test(r.error));
  if (failed) throw new Error(`dynamic-security ${failed.command}: ${failed.error}`);
}
