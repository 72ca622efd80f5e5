import { ErrorCode, serverTypes, type AgentEnrollRequest, type AgentEnrollResponse, type AgentServer } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { devices } from '../../db/schema/index.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { ServerRow, ServersRepository } from '../servers/servers.repository.js';
import { safeEqual, type DeviceCredentials } from './credentials.js';

export const toAgentServer = (s: Pick<ServerRow, 'id' | 'type' | 'url' | 'trustStore' | 'hostKey'>): AgentServer => ({
  id: s.id,
  type: s.type,
  url: s.url,
  trustStore: s.type === 'MESSAGE' ? s.trustStore : null,
  hostKey: s.type === 'PROXY' ? s.hostKey : null,
});

/**
 * An agent proves it is a device with the id and installation key; it gets its own MQTT account
 * and its servers (the least-loaded accepting server of each type, kept on later enrollments).
 */
export class EnrollmentService {
  constructor(
    private readonly o: {
      db: Db;
      servers: ServersRepository;
      credentials: DeviceCredentials;
      hub: MessageHub;
      log: HubLog;
      heartbeatSeconds: number;
      metricsSeconds: number;
    },
  ) {}

  async enroll(req: AgentEnrollRequest): Promise<AgentEnrollResponse> {
    const { db, servers, credentials, hub } = this.o;
    const [device] = await db
      .select({ id: devices.id, organizationId: devices.organizationId, key: devices.installationKey })
      .from(devices)
      .where(eq(devices.id, req.deviceId));
    if (!device) {
      this.o.log.warn({ deviceId: req.deviceId }, 'enrollment refused: unknown device');
      throw notFound('There is no device with this id. Copy the command from the device Install page.');
    }
    if (!safeEqual(req.key, device.key)) {
      this.o.log.warn({ deviceId: req.deviceId }, 'enrollment refused: wrong installation key');
      throw forbidden('The installation key is not valid for this device. Copy the command from the device Install page.');
    }

    const assigned: ServerRow[] = await servers.assignedTo(device.id);
    for (const type of serverTypes) {
      if (assigned.some((s) => s.type === type)) continue;
      const pick = await servers.leastLoaded(type, device.organizationId);
      if (pick) {
        await servers.assign(device.id, pick.id);
        assigned.push(pick);
      }
    }
    const message = assigned.find((s) => s.type === 'MESSAGE');
    if (!message) throw new AppError(503, ErrorCode.Unavailable, 'No message server accepts new devices right now. Ask an administrator.');

    const account = await credentials.issue(device.id);
    await hub.provisionDevice(message.id, device.id, account.password);
    this.o.log.info({ deviceId: device.id, serverId: message.id, agent: req.agent }, 'device enrolled');
    return {
      deviceId: device.id,
      mqtt: account,
      servers: assigned.map(toAgentServer),
      heartbeatSeconds: this.o.heartbeatSeconds,
      metricsSeconds: this.o.metricsSeconds,
    };
  }
}
