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

interface EnrollingDevice {
  id: string;
  organizationId: string;
  /** Null until the device has ever come online. */
  lastResponse: Date | null;
}

/**
 * An agent proves it is a device with the id and installation key; it gets its own MQTT account
 * and its servers (the least-loaded accepting server of each type the console can reach, kept on
 * later enrollments).
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
    const { db, credentials, hub } = this.o;
    const [device] = await db
      .select({ id: devices.id, organizationId: devices.organizationId, key: devices.installationKey, lastResponse: devices.lastResponse })
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

    const assigned = await this.assign(device);
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

  /**
   * The device's server of each type. Among the accepting servers, a message server the hub cannot
   * reach is passed over: the agent could not use it, and its enrollment would fail until an
   * administrator took that server offline. When none can be reached, the least-loaded one is
   * taken anyway, so the error the agent gets names the real problem. An organization's private
   * servers are not traded for shared ones over this: keeping its devices apart is their purpose.
   */
  private async assign(device: EnrollingDevice): Promise<ServerRow[]> {
    const { servers, hub } = this.o;
    // The hub has a connection only to message servers: proxy servers are taken on their status.
    const reachable = (s: ServerRow) => s.type !== 'MESSAGE' || hub.isConnected(s.id) === true;
    const assigned: ServerRow[] = await servers.assignedTo(device.id);
    for (const type of serverTypes) {
      const current = assigned.find((s) => s.type === type);
      // A device that has been online keeps its server through an outage, as an administrator
      // would expect; one that never was has nothing there yet, and its agent is retrying this
      // very enrollment, so it may as well move to a server that works.
      if (current && (device.lastResponse || reachable(current))) continue;
      const candidates = await servers.accepting(type, device.organizationId);
      const pick = candidates.find(reachable) ?? (current ? undefined : candidates[0]);
      if (!pick) continue;
      if (current) {
        await servers.move(device.id, current.id, pick.id);
        assigned.splice(assigned.indexOf(current), 1, pick);
        this.o.log.info({ deviceId: device.id, from: current.id, to: pick.id }, 'device moved off an unreachable message server before it ever connected');
      } else {
        await servers.assign(device.id, pick.id);
        assigned.push(pick);
      }
    }
    return assigned;
  }
}
