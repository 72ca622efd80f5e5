import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { devices, terminalSessions } from '../../db/schema/index.js';

/** How often the console holding a session says it still does. */
export const SESSION_ALIVE_EVERY_MS = 60_000;
/** A session whose console said nothing for this long (it died) no longer counts against the cap. */
const SESSION_ALIVE_FOR_MS = 3 * SESSION_ALIVE_EVERY_MS;

export interface NewTerminalSession {
  id: string;
  deviceId: string;
  username: string;
  relayTokenHash: string;
  relayExpiresAt: Date;
  peerUrl: string;
}

/** The terminal sessions every console shares (db/schema/terminal-sessions.ts). */
export class TerminalSessionsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds a session unless its device already has `max` running ones. The device's row is locked
   * meanwhile, so two consoles opening the last free one at the same moment do not both get it.
   */
  open(session: NewTerminalSession, max: number): Promise<'opened' | 'full' | 'gone'> {
    return this.db.transaction(async (tx) => {
      const [device] = await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, session.deviceId)).for('update');
      if (!device) return 'gone';
      const [running] = await tx
        .select({ n: count() })
        .from(terminalSessions)
        .where(
          and(
            eq(terminalSessions.deviceId, session.deviceId),
            isNull(terminalSessions.endedAt),
            gt(terminalSessions.aliveAt, sql`now() - make_interval(secs => ${SESSION_ALIVE_FOR_MS / 1000})`),
          ),
        );
      if ((running?.n ?? 0) >= max) return 'full';
      await tx.insert(terminalSessions).values(session);
      return 'opened';
    });
  }

  /**
   * The relay's token, used once, by the agent of the session's device, before it expires: where
   * the session's page is (the console to hand the relay to), or nothing.
   */
  async claimRelay(id: string, deviceId: string, tokenHash: string, now = new Date()): Promise<{ peerUrl: string } | undefined> {
    const [row] = await this.db
      .update(terminalSessions)
      .set({ relayClaimedAt: now })
      .where(
        and(
          eq(terminalSessions.id, id),
          eq(terminalSessions.deviceId, deviceId),
          eq(terminalSessions.relayTokenHash, tokenHash),
          isNull(terminalSessions.relayClaimedAt),
          isNull(terminalSessions.endedAt),
          gt(terminalSessions.relayExpiresAt, now),
        ),
      )
      .returning({ peerUrl: terminalSessions.peerUrl });
    return row;
  }

  async alive(ids: string[]): Promise<void> {
    if (ids.length) await this.db.update(terminalSessions).set({ aliveAt: new Date() }).where(inArray(terminalSessions.id, ids));
  }

  async ended(id: string): Promise<void> {
    await this.db.update(terminalSessions).set({ endedAt: new Date() }).where(eq(terminalSessions.id, id));
  }
}
