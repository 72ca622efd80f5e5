import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceCredentials } from '../../db/schema/index.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { loadOrCreateSetting } from '../system/console-secrets.js';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Names an account without giving anything away: a hash of the password's hash. */
const credentialTag = (passwordHash: string) => sha256(`credential:${passwordHash}`).slice(0, 32);

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Device MQTT accounts. The password is HMAC(secret, deviceId:salt): the console can provision the
 * same password on another broker when it migrates a device, while the database keeps only a hash
 * (and a new salt, at an enrollment with a new key, retires the old password).
 */
export class DeviceCredentials {
  private constructor(
    private readonly db: Db,
    private readonly secret: Buffer,
  ) {}

  static async open(db: Db, box: SecretBox): Promise<DeviceCredentials> {
    const secret = await loadOrCreateSetting(db, box, 'credentialSecret', () => randomBytes(32).toString('base64'));
    return new DeviceCredentials(db, Buffer.from(secret, 'base64'));
  }

  private derive(deviceId: string, salt: string): string {
    return createHmac('sha256', this.secret).update(`${deviceId}:${salt}`).digest('base64url');
  }

  /**
   * A fresh account for a device (its username is its id), not yet stored: enrollment provisions it
   * on the broker first and stores it only once that has worked (EnrollmentRepository.commit).
   */
  prepare(deviceId: string): NewDeviceAccount {
    const salt = randomBytes(12).toString('base64url');
    const password = this.derive(deviceId, salt);
    return { username: deviceId, password, row: { deviceId, username: deviceId, passwordHash: sha256(password), salt } };
  }

  /** The device's current password, for provisioning it on another broker. */
  async current(deviceId: string): Promise<{ username: string; password: string } | undefined> {
    const [row] = await this.db.select().from(deviceCredentials).where(eq(deviceCredentials.deviceId, deviceId));
    return row ? { username: row.username, password: this.derive(deviceId, row.salt) } : undefined;
  }

  /** The device id when the username and password match an account. */
  async verify(username: string, password: string): Promise<string | undefined> {
    return (await this.signIn(username, password))?.deviceId;
  }

  /**
   * The device id and a tag of its account as it is now, when the username and password match:
   * a connection that signed in keeps the tag, and a changed tag means the account was re-keyed since.
   */
  async signIn(username: string, password: string): Promise<{ deviceId: string; credential: string } | undefined> {
    if (!username || !password) return undefined;
    const [row] = await this.db
      .select({ deviceId: deviceCredentials.deviceId, passwordHash: deviceCredentials.passwordHash })
      .from(deviceCredentials)
      .where(eq(deviceCredentials.username, username));
    return row && safeEqual(row.passwordHash, sha256(password)) ? { deviceId: row.deviceId, credential: credentialTag(row.passwordHash) } : undefined;
  }

  /** The tag of the device's account now (see signIn); undefined when it has none. */
  async credentialOf(deviceId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ passwordHash: deviceCredentials.passwordHash }).from(deviceCredentials).where(eq(deviceCredentials.deviceId, deviceId));
    return row && credentialTag(row.passwordHash);
  }
}

export interface NewDeviceAccount {
  username: string;
  password: string;
  /** What the device_credentials row will hold: never the password itself. */
  row: { deviceId: string; username: string; passwordHash: string; salt: string };
}
