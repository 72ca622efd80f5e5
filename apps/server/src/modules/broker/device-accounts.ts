import type { ServersRepository } from '../servers/servers.repository.js';
import type { MessageHub } from './message-hub.js';

/**
 * Takes a device's MQTT account away (a key reset, the device deleted): the broker drops the account,
 * and with it the agent's connection, before the database changes, so a failure leaves both as they
 * were; then the built-in broker, which checks the database at each login, drops the connection
 * too. Tunnel proxies hear of it from the database (device_revocations).
 */
export class DeviceAccounts {
  constructor(private readonly o: { servers: Pick<ServersRepository, 'assignments'>; hub: Pick<MessageHub, 'removeDevice' | 'disconnectDevice'> }) {}

  async retire<T>(deviceId: string, change: () => Promise<T>): Promise<T> {
    const message = (await this.o.servers.assignments(deviceId)).find((s) => s.type === 'MESSAGE');
    if (message) await this.o.hub.removeDevice(message.id, deviceId);
    const result = await change();
    this.o.hub.disconnectDevice(deviceId);
    return result;
  }
}
