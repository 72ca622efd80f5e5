import { AuditKind, ErrorCode, serverTypes, type AgentEnrollRequest, type AgentEnrollResponse, type AgentServer } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { ConsoleLocks } from '../../db/console-locks.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DeviceAccounts } from '../broker/device-accounts.js';
import { DeviceWorkQueue } from '../broker/device-work-queue.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { MessageHub } from '../broker/message-hub.js';
import { newInstallationKey } from '../devices/devices.service.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import type { ServerRow, ServersRepository } from '../servers/servers.repository.js';
import { safeEqual, type DeviceCredentials, type NewDeviceAccount } from './credentials.js';
import type { Assignment, EnrollingDevice, EnrollmentRepository } from './enrollment.repository.js';

export const toAgentServer = (s: Pick<ServerRow, 'id' | 'type' | 'url' | 'trustStore' | 'hostKey'>): AgentServer => ({
  id: s.id,
  type: s.type,
  url: s.url,
  trustStore: s.type === 'MESSAGE' ? s.trustStore : null,
  hostKey: s.type === 'PROXY' ? s.hostKey : null,
});

/** Enrollments and key resets handled at once; one device's run one after another. */
const CONCURRENCY = 16;

const KEY_USED =
  'This installation key has already enrolled the device. To enroll it again, a creator or administrator of its organization resets the key on the Install page.';
const ACCOUNT_RETIRED =
  "The device's credentials are no longer valid (its installation key was reset, or it was enrolled elsewhere). Run the agent with the new key from the Install page.";

/**
 * An agent proves it is a device with the id and installation key (once: a used key enrolls
 * nothing until a manager resets it), or, once enrolled, with its own MQTT password; it gets its
 * MQTT account and its servers (the least-loaded accepting server of each type the console can
 * reach, kept on later enrollments). Nothing is stored until the broker has the account, so a
 * failed enrollment leaves the device as it was.
 */
export class EnrollmentService {
  /** Enrollments and resets at once on this console; one device's wait their turn here before its lock. */
  private readonly serial = new DeviceWorkQueue(CONCURRENCY);

  constructor(
    private readonly o: {
      repo: EnrollmentRepository;
      servers: ServersRepository;
      credentials: DeviceCredentials;
      policy: OrganizationPolicy;
      audit: AuditTrail;
      hub: MessageHub;
      accounts: DeviceAccounts;
      locks: ConsoleLocks;
      log: HubLog;
      heartbeatSeconds: number;
      metricsSeconds: number;
    },
  ) {}

  /**
   * An enrollment with the installation key is recorded in the audit trail, refused or not (its
   * agent acted, from `clientAddress`); an agent renewing its own account changes nothing to record.
   */
  enroll(req: AgentEnrollRequest, clientAddress: string | null = null): Promise<AgentEnrollResponse> {
    return this.inTurn(req.deviceId, async () => {
      const withKey = req.password === undefined;
      const record = (error: string | null) =>
        this.o.audit.record(
          { username: null, subject: null, clientAddress },
          { kind: AuditKind.DeviceEnroll, deviceId: req.deviceId, details: { ...req.agent } },
          { error },
        );
      try {
        const answer = await this.enrollSerially(req);
        if (withKey) await record(null);
        return answer;
      } catch (err) {
        if (withKey && err instanceof AppError && err.statusCode === 403) await record(err.message);
        throw err;
      }
    });
  }

  /**
   * One device's enrollments, renewals and key resets never overlap, whichever console each reaches:
   * each holds the device's advisory lock, so it sees the last one's outcome.
   */
  private inTurn<T>(deviceId: string, work: () => Promise<T>): Promise<T> {
    return this.serial.run(deviceId, () => this.o.locks.withLock(`device:${deviceId}`, work));
  }

  /** Read inside the device's turn, so it sees what the enrollment or reset before it stored. */
  private async enrollSerially(req: AgentEnrollRequest): Promise<AgentEnrollResponse> {
    const { repo, credentials, hub, log } = this.o;
    const device = await repo.device(req.deviceId);
    if (!device) {
      log.warn({ deviceId: req.deviceId }, 'enrollment refused: unknown device');
      throw notFound('There is no device with this id. Copy the command from the device Install page.');
    }
    const account = await this.account(device, req);

    const { assigned, changes } = await this.assign(device);
    const message = assigned.find((s) => s.type === 'MESSAGE');
    if (!message) throw new AppError(503, ErrorCode.Unavailable, 'No message server accepts new devices right now. Ask an administrator.');

    // The broker first: if it fails, the device keeps the account it had, everywhere.
    await hub.provisionDevice(message.id, device.id, account.password);
    const stored = await repo.commit(device.id, { claimKey: account.claimKey, account: account.row, assignments: changes });
    if (!stored) {
      // Only another console could have claimed the key meanwhile: the account it stored is the one
      // the broker must keep.
      const current = await credentials.current(device.id);
      if (current) await hub.provisionDevice(message.id, device.id, current.password).catch(() => {});
      log.warn({ deviceId: device.id }, 'enrollment refused: the key was used by another enrollment meanwhile');
      throw forbidden(KEY_USED);
    }
    log.info({ deviceId: device.id, serverId: message.id, agent: req.agent, renewed: !account.claimKey }, 'device enrolled');
    return {
      deviceId: device.id,
      mqtt: { username: account.username, password: account.password },
      servers: assigned.map(toAgentServer),
      heartbeatSeconds: this.o.heartbeatSeconds,
      metricsSeconds: this.o.metricsSeconds,
    };
  }

  /**
   * The account the agent will use. With its own password: that same account, provisioned again
   * (a broker may have lost it). With the key: a new one, claiming the key, unless it was used.
   */
  private async account(device: EnrollingDevice, req: AgentEnrollRequest): Promise<{ username: string; password: string; claimKey?: string; row?: NewDeviceAccount['row'] }> {
    const { credentials, log } = this.o;
    const renewing = req.password !== undefined;
    if (renewing && (await credentials.verify(device.id, req.password!)) === device.id) {
      return { username: device.id, password: req.password! };
    }
    const keyMatches = req.key !== undefined && safeEqual(req.key, device.installationKey);
    if (!keyMatches || device.installationKeyUsedAt) {
      // An agent that had an account hears why it lost it, whatever old key it still has.
      const [reason, message] = renewing
        ? ['retired credentials', ACCOUNT_RETIRED]
        : !keyMatches
          ? ['wrong installation key', 'The installation key is not valid for this device. Copy the command from the device Install page.']
          : ['used installation key', KEY_USED];
      log.warn({ deviceId: device.id }, `enrollment refused: ${reason}`);
      throw forbidden(message);
    }
    const fresh = credentials.prepare(device.id);
    return { username: fresh.username, password: fresh.password, claimKey: device.storedKey, row: fresh.row };
  }

  /**
   * A manager retires the device's key and its agent's account: the broker drops the account (and
   * with it the agent's connection) before the new key is stored, so a failure leaves both as they
   * were. Answers the new key.
   */
  resetKey(p: Principal, deviceId: string): Promise<string> {
    return this.o.audit.track(p, { kind: AuditKind.DeviceKeyReset, deviceId }, () => this.resetKeyNow(p, deviceId));
  }

  private async resetKeyNow(p: Principal, deviceId: string): Promise<string> {
    await this.o.policy.writeDevice(p, deviceId);
    return this.inTurn(deviceId, async () => {
      const { repo, accounts, log } = this.o;
      const key = newInstallationKey();
      await accounts.retire(deviceId, () => repo.resetKey(deviceId, key));
      log.info({ deviceId, username: p.username, subject: p.subject }, 'installation key reset; the agent was disconnected');
      return key;
    });
  }

  /**
   * The device's server of each type, and what changes in its assignment (stored with the rest of
   * the enrollment). Among the accepting servers, a message server the hub cannot
   * reach is passed over: the agent could not use it, and its enrollment would fail until an
   * administrator took that server offline. When none can be reached, the least-loaded one is
   * taken anyway, so the error the agent gets names the real problem. An organization's private
   * servers are not traded for shared ones over this: keeping its devices apart is their purpose.
   */
  private async assign(device: EnrollingDevice): Promise<{ assigned: ServerRow[]; changes: Assignment[] }> {
    const { servers, hub } = this.o;
    // The hub has a connection only to message servers: proxy servers are taken on their status.
    const reachable = (s: ServerRow) => s.type !== 'MESSAGE' || hub.isConnected(s.id) === true;
    const assigned: ServerRow[] = await servers.assignedTo(device.id);
    const changes: Assignment[] = [];
    for (const type of serverTypes) {
      const current = assigned.find((s) => s.type === type);
      // A device that has been online keeps its server through an outage, as an administrator
      // would expect; one that never was has nothing there yet, and its agent is retrying this
      // very enrollment, so it may as well move to a server that works.
      if (current && (device.lastResponse || reachable(current))) continue;
      const candidates = await servers.accepting(type, device.organizationId);
      const pick = candidates.find(reachable) ?? (current ? undefined : candidates[0]);
      if (!pick) continue;
      changes.push({ serverId: pick.id, replaces: current?.id });
      if (current) {
        assigned.splice(assigned.indexOf(current), 1, pick);
        this.o.log.info({ deviceId: device.id, from: current.id, to: pick.id }, 'device moves off an unreachable message server before it ever connected');
      } else {
        assigned.push(pick);
      }
    }
    return { assigned, changes };
  }
}
