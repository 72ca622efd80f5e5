import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** What other consoles keep in memory and must drop when it changes (DESIGN §5b), and that a console is behind with device messages. */
export type NoticeTopic = 'servers' | 'live' | 'accounts' | 'behind';

/** What a notice carries: its own data, or undefined when the listener must assume anything changed. */
export type NoticeListener = (data: unknown) => void;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const NOTICE_PAYLOAD_MAX = 7900;

/**
 * Tells the other consoles of one database that something they hold in memory changed: PostgreSQL
 * `LISTEN/NOTIFY` on one channel. A console hears only the others' notices (it acted on its own
 * change already), and after losing its listening connection it hears every topic once, as if each
 * had changed (its listeners get undefined): a notice sent while it was away is lost, so it cannot
 * know which did.
 */
export interface ChangeNotices {
  /** `data` (JSON) must stay under NOTICE_PAYLOAD_MAX bytes once encoded with the notice. */
  publish(topic: NoticeTopic, data?: unknown): Promise<void>;
  on(topic: NoticeTopic, listener: NoticeListener): void;
  close(): Promise<void>;
}

const CHANNEL = 'fleetlink_changes';
const RETRY_MS = [1000, 2000, 5000, 10_000];

export class PostgresNotices implements ChangeNotices {
  /** This console among the others: its own notices come back to it, and are not for it. */
  private readonly origin = randomUUID();
  private readonly listeners = new Map<NoticeTopic, Set<NoticeListener>>();
  private client?: pg.Client;
  private closed = false;
  private failures = 0;
  private retry?: NodeJS.Timeout;

  private constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly log: { warn(o: object, m: string): void },
  ) {}

  static async open(url: string, pool: pg.Pool, log: { warn(o: object, m: string): void }): Promise<PostgresNotices> {
    const notices = new PostgresNotices(url, pool, log);
    await notices.listen();
    return notices;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on('error', () => {});
    client.on('end', () => {
      if (this.client !== client || this.closed) return;
      this.client = undefined;
      this.log.warn({}, 'lost the database connection that hears other consoles; listening again');
      this.again();
    });
    client.on('notification', (n) => this.heard(n.payload));
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    if (this.closed) return void client.end().catch(() => {});
    this.client = client;
    // Whatever changed while this console did not listen is unknown: everything is read again.
    if (this.failures > 0) for (const set of this.listeners.values()) set.forEach((l) => l(undefined));
    this.failures = 0;
  }

  private again() {
    const wait = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)]!;
    this.retry = setTimeout(() => {
      this.listen().catch(() => {
        if (!this.closed) this.again();
      });
    }, wait);
    this.retry.unref();
  }

  private heard(payload: string | undefined) {
    let notice: { topic?: NoticeTopic; origin?: string; data?: unknown };
    try {
      notice = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (notice.origin === this.origin || !notice.topic) return;
    // A notice without data of its own still tells that something changed.
    const data = notice.data ?? null;
    this.listeners.get(notice.topic)?.forEach((l) => l(data));
  }

  async publish(topic: NoticeTopic, data?: unknown): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, origin: this.origin, data })]);
  }

  on(topic: NoticeTopic, listener: NoticeListener): void {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}

/** PGlite serves one console: there is nobody else to tell. */
export class LocalNotices implements ChangeNotices {
  async publish(): Promise<void> {}
  on(): void {}
  async close(): Promise<void> {}
}
