import type { LivePart } from '@fleetlink/contract';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { NOTICE_PAYLOAD_MAX, type ChangeNotices } from '../../db/change-notices.js';
import { devices } from '../../db/schema/index.js';
import { DeviceChanges, type DeviceChange } from './device-changes.js';

/** What the services tell the live channel: called where a change is written, never waiting. */
export interface LiveChanges {
  /** Something of a device changed; `org` when the device row may be gone (deleted). */
  device(id: string, part: LivePart, o?: { online?: boolean; org?: string }): void;
  /** Message servers or proxies changed (status, utilization). */
  servers(): void;
  /** Releases or their rollouts changed (a wave started, devices took it or failed it): realm administrators' pages. */
  releases(): void;
  /** Who belongs to an organization changed; `user` is a username (email) that joined or left. */
  access(org: string, user?: string): void;
  /** A fleet job of `owner` (a username) changed: a run started or ended, a device's result came in. */
  job(id: string, owner: string): void;
  /** These people's bells changed (issue 66): an alert came in, or they read some. */
  alerts(usernames: string[]): void;
}

/** One device's changes as the streams get them: with its organization, which decides who may see it. */
export interface BusChange {
  id: string;
  org: string;
  online?: boolean;
  parts: LivePart[];
}

/** A stream as the bus sees it (live-stream.ts). */
export interface LiveSink {
  devices(changes: BusChange[]): void;
  servers(): void;
  access(org: string, user?: string): void;
  /** Too much changed to say which (another console's burst, or notices were missed). */
  resync(orgs?: Set<string>): void;
  /** Fleet jobs that changed, each with its owner (only streams that want them listen). */
  jobs?(changes: JobChange[]): void;
  /** Releases changed (only streams that show them listen). */
  releases?(): void;
  /** These people's bells changed. */
  alerts?(usernames: string[]): void;
}

/** A fleet job that changed, and whose it is: only its owner's pages hear of it. */
export interface JobChange {
  id: string;
  owner: string;
}

/** What travels between consoles, short keys since NOTIFY payloads are small. */
interface LiveNotice {
  /** Device changes. */
  d?: BusChange[];
  /** Organizations whose devices changed too much to list. */
  r?: string[];
  s?: 1;
  /** Releases changed. */
  l?: 1;
  a?: { org: string; user?: string };
  j?: JobChange[];
  /** Whose bells changed. */
  n?: string[];
}

/** Past this many devices in one flush, other consoles hear only which organizations changed. */
const LISTED_MAX = 500;
const ORG_QUERY_CHUNK = 1000;

/**
 * The console's side of live updates (issue 61): changes are gathered for `flushMs` (per device,
 * the parts merged and the last online state kept), their organizations read in one statement,
 * then handed to this console's streams and, through PostgreSQL NOTIFY, to every other console's
 * (DESIGN §5b): whichever console learned a change, every browser hears it.
 */
export class LiveBus implements LiveChanges {
  private readonly pending = new DeviceChanges();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly sinks = new Set<LiveSink>();
  /** Jobs changed since the last flush: a 10,000-device run tells each page once per flush, not per device. */
  private readonly pendingJobs = new Map<string, string>();
  private jobTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly o: {
      db: Db;
      notices: ChangeNotices;
      log: { warn(o: object, m: string): void };
      flushMs?: number;
    },
  ) {
    o.notices.on('live', (data) => this.heard(data as LiveNotice | null | undefined));
  }

  get streams(): number {
    return this.sinks.size;
  }

  attach(sink: LiveSink): void {
    this.sinks.add(sink);
  }

  detach(sink: LiveSink): void {
    this.sinks.delete(sink);
  }

  device(id: string, part: LivePart, o: { online?: boolean; org?: string } = {}): void {
    if (this.closed) return;
    this.pending.add(id, [part], o);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, this.o.flushMs ?? 100);
  }

  servers(): void {
    this.sinks.forEach((s) => s.servers());
    this.tell({ s: 1 });
  }

  /** This console's connection to a message server changed: only its own pages show that connection. */
  connections(): void {
    if (!this.closed) this.sinks.forEach((s) => s.servers());
  }

  releases(): void {
    this.sinks.forEach((s) => s.releases?.());
    this.tell({ l: 1 });
  }

  access(org: string, user?: string): void {
    this.sinks.forEach((s) => s.access(org, user));
    this.tell({ a: { org, user } });
  }

  job(id: string, owner: string): void {
    if (this.closed) return;
    this.pendingJobs.set(id, owner);
    this.jobTimer ??= setTimeout(() => {
      this.jobTimer = undefined;
      const changes = [...this.pendingJobs].map(([id, owner]) => ({ id, owner }));
      this.pendingJobs.clear();
      this.sinks.forEach((s) => s.jobs?.(changes));
      for (const chunk of chunks(changes)) this.tell({ j: chunk });
    }, this.o.flushMs ?? 100);
  }

  alerts(usernames: string[]): void {
    if (this.closed || !usernames.length) return;
    this.sinks.forEach((s) => s.alerts?.(usernames));
    for (const chunk of chunks(usernames)) this.tell({ n: chunk });
  }

  /** Sends what was gathered (on the timer, one flush at a time). */
  private async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending.take();
    let changes: BusChange[];
    try {
      changes = await this.withOrganizations(batch);
    } catch (err) {
      this.o.log.warn({ err: (err as Error).message, devices: batch.length }, 'live updates: could not read the changed devices; pages will catch up at their next refresh');
      return;
    }
    if (!changes.length) return;
    this.sinks.forEach((s) => s.devices(changes));
    if (changes.length > LISTED_MAX) return this.tell({ r: [...new Set(changes.map((c) => c.org))] });
    for (const chunk of chunks(changes)) this.tell({ d: chunk });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.jobTimer);
    this.pendingJobs.clear();
    this.pending.clear();
  }

  private async withOrganizations(batch: DeviceChange[]): Promise<BusChange[]> {
    const unknown = batch.filter((c) => !c.org).map((c) => c.id);
    const orgs = new Map<string, string>();
    for (let i = 0; i < unknown.length; i += ORG_QUERY_CHUNK) {
      const rows = await this.o.db
        .select({ id: devices.id, org: devices.organizationId })
        .from(devices)
        .where(inArray(devices.id, unknown.slice(i, i + ORG_QUERY_CHUNK)));
      for (const r of rows) orgs.set(r.id, r.org);
    }
    // A device gone before its change was sent (and not said to be removed) concerns nobody now.
    return batch.flatMap((c) => {
      const org = c.org ?? orgs.get(c.id);
      return org ? [{ ...c, org }] : [];
    });
  }

  private tell(notice: LiveNotice) {
    if (this.closed) return;
    this.o.notices.publish('live', notice).catch((err: Error) =>
      this.o.log.warn({ err: err.message }, 'live updates: could not tell the other consoles; their pages catch up at their next refresh'),
    );
  }

  private heard(notice: LiveNotice | null | undefined) {
    // Undefined: this console lost the notices for a while, and cannot know what it missed.
    if (!notice) return this.sinks.forEach((s) => s.resync());
    if (notice.d) this.sinks.forEach((s) => s.devices(notice.d!));
    if (notice.r) {
      const orgs = new Set(notice.r);
      this.sinks.forEach((s) => s.resync(orgs));
    }
    if (notice.s) this.sinks.forEach((s) => s.servers());
    if (notice.l) this.sinks.forEach((s) => s.releases?.());
    if (notice.a) this.sinks.forEach((s) => s.access(notice.a!.org, notice.a!.user));
    if (notice.j) this.sinks.forEach((s) => s.jobs?.(notice.j!));
    if (notice.n) this.sinks.forEach((s) => s.alerts?.(notice.n!));
  }
}

/** Changes (of devices, of jobs) in groups whose NOTIFY payload stays under PostgreSQL's limit. */
function* chunks<T>(changes: T[]): Generator<T[]> {
  let chunk: T[] = [];
  let size = 100;
  for (const c of changes) {
    const n = JSON.stringify(c).length + 1;
    if (size + n > NOTICE_PAYLOAD_MAX && chunk.length) {
      yield chunk;
      chunk = [];
      size = 100;
    }
    chunk.push(c);
    size += n;
  }
  if (chunk.length) yield chunk;
}
