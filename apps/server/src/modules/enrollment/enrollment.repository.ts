import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceCredentials, devices } from '../../db/schema/index.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { NewDeviceAccount } from './credentials.js';
import type { InstallationKeys } from './installation-keys.js';

export interface EnrollingDevice {
  id: string;
  organizationId: string;
  installationKey: string;
  /** The key as the database keeps it (sealed): an enrollment claims it by this text. */
  storedKey: string;
  /** When an agent enrolled with the current key; null while it is unused. */
  installationKeyUsedAt: Date | null;
  /** Null until the device has ever come online. */
  lastResponse: Date | null;
}

/** A server the enrollment gives the device: new, or in place of one it had. */
export interface Assignment {
  serverId: string;
  replaces?: string;
}

/** Another enrollment with the same key was stored first. */
class KeyAlreadyClaimed extends Error {}

/** The SQL of enrollment: the device's key, its MQTT account and its servers, written together. */
export class EnrollmentRepository {
  constructor(
    private readonly db: Db,
    private readonly servers: ServersRepository,
    private readonly keys: InstallationKeys,
  ) {}

  async device(id: string): Promise<EnrollingDevice | undefined> {
    const [row] = await this.db
      .select({
        id: devices.id,
        organizationId: devices.organizationId,
        installationKey: devices.installationKey,
        installationKeyUsedAt: devices.installationKeyUsedAt,
        lastResponse: devices.lastResponse,
      })
      .from(devices)
      .where(eq(devices.id, id));
    return row && { ...row, storedKey: row.installationKey, installationKey: this.keys.open(row.installationKey) };
  }

  /**
   * Stores an enrollment in one transaction, once the broker has the account: the servers, and for
   * an enrollment with the key, the new account and the key marked used. Answers false, storing
   * nothing, when the key was claimed meanwhile (by a concurrent enrollment) or reset. The key is
   * claimed by its stored text (`EnrollingDevice.storedKey`).
   */
  async commit(deviceId: string, change: { claimKey?: string; account?: NewDeviceAccount['row']; assignments: Assignment[] }): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        if (change.claimKey !== undefined) {
          const claimed = await tx
            .update(devices)
            .set({ installationKeyUsedAt: new Date() })
            .where(and(eq(devices.id, deviceId), eq(devices.installationKey, change.claimKey), isNull(devices.installationKeyUsedAt)))
            .returning({ id: devices.id });
          if (claimed.length === 0) throw new KeyAlreadyClaimed();
        }
        if (change.account) {
          const values = { ...change.account, createdAt: new Date() };
          await tx
            .insert(deviceCredentials)
            .values(values)
            .onConflictDoUpdate({ target: deviceCredentials.deviceId, set: { passwordHash: values.passwordHash, salt: values.salt, createdAt: values.createdAt } });
        }
        for (const a of change.assignments) {
          if (a.replaces) await this.servers.move(deviceId, a.replaces, a.serverId, tx);
          else await this.servers.assign(deviceId, a.serverId, tx);
        }
      });
      return true;
    } catch (err) {
      if (err instanceof KeyAlreadyClaimed) return false;
      throw err;
    }
  }

  /** A new, unused key, and no MQTT account: the agent that had one can no longer log in. */
  async resetKey(deviceId: string, installationKey: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(devices).set({ installationKey: this.keys.seal(installationKey), installationKeyUsedAt: null }).where(eq(devices.id, deviceId));
      await tx.delete(deviceCredentials).where(eq(deviceCredentials.deviceId, deviceId));
    });
  }
}
