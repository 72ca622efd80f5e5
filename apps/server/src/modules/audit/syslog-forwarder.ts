import { readFileSync } from 'node:fs';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { and, asc, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEntries, auditForwarding } from '../../db/schema/index.js';
import { octetCounted, syslogMessage } from './syslog-format.js';

/** Entries read and written per batch. */
const BATCH = 500;
/** Entries newer than this are left for the next round: an id is drawn before its row commits, so a lower one may still be coming. */
const SETTLE_MS = 2000;
/** A collector has this long to take a connection, and each batch. */
const DEADLINE_MS = 10_000;

/** The collector could not be reached or did not take a batch (unlike a database error, which the round's task reports). */
class CollectorAway extends Error {}

export interface SyslogTarget {
  /** tcp://host:port or tls://host:port. */
  url: URL;
  /** A CA to trust for tls:// (AUDIT_SYSLOG_CA_FILE), beside the system's. */
  caFile?: string;
}

/**
 * Forwards the audit trail to the operator's syslog collector (issue 66, AUDIT_SYSLOG_URL), as
 * RFC 5424 messages over TCP or TLS with RFC 6587 octet counting. The trail is the queue: each round
 * (one console at a time, a PeriodicTask) sends the entries after the last one the collector took,
 * in id order, and moves the position once a batch is written; a collector that is away is tried
 * again the next round and then gets what it missed, in order. The queue is bounded: when more than
 * `backlogMax` entries wait, the oldest are skipped, said in the log and to the collector (the trail
 * on /operator/audit keeps them all).
 */
export class SyslogForwarder {
  private socket?: Socket;
  private readonly target: string;
  /** Since when the collector could not be reached: said once when it goes, once when it is back (not every second). */
  private downSince?: Date;

  constructor(
    private readonly o: {
      db: Db;
      syslog: SyslogTarget;
      hostname: string;
      backlogMax: number;
      log: { warn(o: object, m: string): void; info(o: object, m: string): void };
    },
  ) {
    const u = new URL(o.syslog.url);
    u.username = '';
    u.password = '';
    this.target = u.toString();
  }

  async round(): Promise<void> {
    try {
      await this.send();
    } catch (err) {
      if (!(err instanceof CollectorAway)) throw err;
      if (this.downSince) return;
      this.downSince = new Date();
      this.o.log.warn({ err: (err as Error).message, collector: this.target }, 'audit forwarding: the collector cannot be reached; entries wait in the trail and are sent when it is back');
      return;
    }
    if (this.downSince) {
      this.o.log.info({ collector: this.target, awaySince: this.downSince.toISOString() }, 'audit forwarding: the collector is back, and has what it missed');
      this.downSince = undefined;
    }
  }

  private async send(): Promise<void> {
    let last = await this.position();
    const newest = await this.newestSettled();
    if (newest - last > this.o.backlogMax) {
      // Said to the collector first: while it is away nothing is skipped (the round ends at the write).
      const skipped = newest - this.o.backlogMax - last;
      await this.write([octetCounted(`<108>1 ${new Date().toISOString()} ${this.o.hostname} fleetlink - audit.skipped - \uFEFFAbout ${skipped} audit entries were not forwarded: the collector was away while more than ${this.o.backlogMax} waited. Read them on /operator/audit.`)]);
      this.o.log.warn({ skipped, collector: this.target }, 'audit forwarding: the collector was away too long; the oldest entries waiting were skipped (the trail keeps them)');
      last = newest - this.o.backlogMax;
      await this.advance(last);
    }
    for (;;) {
      const rows = await this.o.db
        .select()
        .from(auditEntries)
        .where(and(gt(auditEntries.id, last), lte(auditEntries.id, newest)))
        .orderBy(asc(auditEntries.id))
        .limit(BATCH);
      if (!rows.length) return;
      await this.write(rows.map((r) => octetCounted(syslogMessage(r, this.o.hostname))));
      last = rows.at(-1)!.id;
      await this.advance(last);
      if (rows.length < BATCH) return;
    }
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  /** Where forwarding stands; a new collector starts at the newest entry (it is not sent the whole history). */
  private async position(): Promise<number> {
    const [row] = await this.o.db.select({ lastId: auditForwarding.lastId }).from(auditForwarding).where(eq(auditForwarding.target, this.target));
    if (row) return row.lastId;
    const start = await this.newestSettled();
    await this.o.db.insert(auditForwarding).values({ target: this.target, lastId: start }).onConflictDoNothing();
    this.o.log.info({ collector: this.target, from: start }, 'audit forwarding: starts with the entries after this one');
    return start;
  }

  /** The newest entry old enough that none below it can still be coming. */
  private async newestSettled(): Promise<number> {
    const [row] = await this.o.db
      .select({ id: max(auditEntries.id) })
      .from(auditEntries)
      .where(lte(auditEntries.time, sql`now() - ${`${SETTLE_MS} milliseconds`}::interval`));
    return row?.id ?? 0;
  }

  private async advance(lastId: number): Promise<void> {
    await this.o.db.update(auditForwarding).set({ lastId, updatedAt: new Date() }).where(eq(auditForwarding.target, this.target));
  }

  /** Writes the frames and waits until they are handed to the network; on any failure the socket is dropped, and the round ends. */
  private async write(frames: string[]): Promise<void> {
    try {
      const socket = await this.connected();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the collector did not take the batch in time')), DEADLINE_MS);
        socket.once('error', reject);
        socket.write(frames.join(''), (err) => {
          clearTimeout(timer);
          socket.off('error', reject);
          if (err) reject(err);
          else resolve();
        });
      });
    } catch (err) {
      this.close();
      throw new CollectorAway((err as Error).message);
    }
  }

  private connected(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed && this.socket.writable) return Promise.resolve(this.socket);
    const { url, caFile } = this.o.syslog;
    const port = Number(url.port || (url.protocol === 'tls:' ? 6514 : 514));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise((resolve, reject) => {
      const socket =
        url.protocol === 'tls:'
          ? tlsConnect({ host, port, servername: host, ...(caFile ? { ca: readFileSync(caFile) } : {}) }, () => done())
          : tcpConnect({ host, port }, () => done());
      const timer = setTimeout(() => fail(new Error('the collector did not answer in time')), DEADLINE_MS);
      const done = () => {
        clearTimeout(timer);
        socket.off('error', fail);
        // A collector that goes away later shows at the next write.
        socket.on('error', () => this.close());
        socket.on('close', () => {
          if (this.socket === socket) this.socket = undefined;
        });
        socket.setKeepAlive(true, 30_000);
        this.socket = socket;
        resolve(socket);
      };
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      socket.once('error', fail);
    });
  }
}
