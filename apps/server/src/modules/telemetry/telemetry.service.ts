import type { ConsoleLocks } from '../../db/console-locks.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import { WriteBatch } from '../../lib/write-batch.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { DeviceMessage, DeviceTrafficHandler, MessageHub } from '../broker/message-hub.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { MonitorsRepository } from '../monitors/monitors.repository.js';
import { stateOrder } from '@fleetlink/contract';
import type { LiveChanges } from '../live/live-bus.js';
import { DEVICE_CLOCK_SKEW_MINUTES, type TelemetryRepository } from './telemetry.repository.js';

export interface TelemetryOptions {
  repo: TelemetryRepository;
  devices: DevicesRepository;
  servers: ServersRepository;
  hub: MessageHub;
  /** The silence sweep and the pruning of old samples run on one console at a time. */
  locks: ConsoleLocks;
  log: HubLog;
  heartbeatSeconds: number;
  pingSeconds: number;
  /** Called when a device comes online on a server it is not assigned to (it missed a migration). */
  onMisplaced?(deviceId: string, serverId: string): Promise<void>;
  /** Called each time devices say they are online (each connect of their agents), many at once, without waiting. */
  onOnline?(deviceIds: string[]): void;
  /** Where the monitors' readings that come with properties go. */
  monitorReadings?: Pick<MonitorsRepository, 'recordReadings'>;
  /** Told what changed, for the pages' live updates. */
  live?: LiveChanges;
  /**
   * Whether this console is behind with device messages (its backlog): the silence sweep is put off
   * meanwhile, since the heartbeats and states it would miss may be among those waiting.
   */
  behind?(): boolean;
  /** How long heartbeats and load samples wait to be written together (default 1000 ms). */
  flushMs?: number;
}

/** Past this many waiting heartbeats or samples, they are written at once. */
const BATCH_MAX = 1000;
/**
 * State messages and ping claims wait this long (or for this many) to be written together: a fleet
 * coming back after a restart sends thousands a second, and one by one each online state cost the
 * console five statements, a placement check, a ping claim and two lookups (3.3–4.6 ms of CPU a
 * device, issue 70).
 */
const WAITING_BATCH_MAX = 500;
const WAITING_BATCH_WAIT_MS = 20;

interface StateMessage {
  deviceId: string;
  serverId: string;
  online: boolean;
  order: number;
  at: Date;
}

const KEEP_MS = 9 * 24 * 3600_000;
/** However far behind a console is, the silence sweep runs at least this often. */
const SWEEP_PUT_OFF_MAX_MS = 5 * 60_000;
/** How far ahead of the console's clock a load sample may be dated (the repository allows as much behind). */
const METRIC_CLOCK_SKEW_MS = DEVICE_CLOCK_SKEW_MINUTES * 60_000;

/**
 * What device traffic means for the console: online state and periods, last response, properties,
 * load samples, and latency measured by a ping round trip when a device comes online and then
 * every `pingSeconds` while it keeps sending heartbeats.
 */
export class TelemetryService implements DeviceTrafficHandler {
  private readonly lastPing = new Map<string, number>();
  private tasks: PeriodicTask[] = [];
  // Heartbeats and samples are most of a fleet's traffic: written together, one statement each
  // per flush instead of one (or a transaction) per message.
  private beats = new Map<string, Date>();
  /** Latencies measured by pings, written with the heartbeats. */
  private latencies = new Map<string, number>();
  private readonly states = new WriteBatch<StateMessage, void>({
    max: WAITING_BATCH_MAX,
    waitMs: WAITING_BATCH_WAIT_MS,
    write: (states) => this.writeStates(states),
  });
  /** Agents' reports (properties, addresses, drives), sent at each connect: written together, as states are. */
  private readonly reports = new WriteBatch<Parameters<DevicesRepository['updateReported']>[0][number], boolean | Error>({
    max: WAITING_BATCH_MAX,
    waitMs: WAITING_BATCH_WAIT_MS,
    write: (reports) => this.writeReports(reports),
  });
  /** Pings due, claimed together: after a restart every heartbeat finds its device's ping due. */
  private readonly pingClaims = new WriteBatch<{ deviceId: string; seconds: number }, boolean>({
    max: WAITING_BATCH_MAX,
    waitMs: WAITING_BATCH_WAIT_MS,
    write: (claims) => this.o.repo.claimPings(claims),
  });
  private samples: { deviceId: string; time: Date; systemLoad: number; heardAt: Date }[] = [];
  private flushing?: Promise<void>;
  private flushTimer?: NodeJS.Timeout;

  constructor(private readonly o: TelemetryOptions) {}

  start() {
    const { locks, log } = this.o;
    this.tasks = [
      new PeriodicTask({ name: 'silent devices sweep', everyMs: this.o.heartbeatSeconds * 1000, locks, log, work: () => this.sweepUnlessBehind().then(() => undefined) }),
      new PeriodicTask({ name: 'load samples pruning', everyMs: 3600_000, locks, log, work: () => this.o.repo.pruneMetrics(new Date(Date.now() - KEEP_MS)) }),
    ].map((t) => t.start());
  }

  async stop() {
    await Promise.all(this.tasks.map((t) => t.stop()));
    this.tasks = [];
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.states.flush();
    await this.reports.flush();
    await this.pingClaims.flush();
    await this.flush().catch(() => {});
  }

  private scheduleFlush() {
    if (this.beats.size + this.samples.length + this.latencies.size >= BATCH_MAX) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.o.flushMs ?? 1000);
  }

  /** Writes what is waiting; one flush at a time, so the order of a device's writes holds. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.beats.size && !this.samples.length && !this.latencies.size) return;
    const { beats, samples, latencies } = this;
    this.beats = new Map();
    this.samples = [];
    this.latencies = new Map();
    this.flushing = (async () => {
      try {
        const { repo } = this.o;
        const notOnline = await repo.touchOnline(beats).catch((err: Error) => {
          this.o.log.warn({ err: err.message, heartbeats: beats.size }, 'heartbeats could not be written');
          return [];
        });
        // Heartbeats from devices the console thought offline (swept, or their will arrived late).
        if (notOnline.length) {
          const back = await repo.setOnlineByHeartbeats(new Map(notOnline.map((id) => [id, beats.get(id)!]))).catch((err: Error) => {
            this.o.log.warn({ err: err.message, devices: notOnline.length }, 'online states could not be written');
            return [];
          });
          for (const id of back) this.stateChanged(id, true);
          // Their online states went to no console (none was subscribed, or they were dropped as
          // stale): what a console does for devices that come online is done now.
          if (back.length) this.o.onOnline?.(back);
        }
        const early = await repo.addMetrics(samples).catch((err: Error) => {
          this.o.log.warn({ err: err.message, samples: samples.length }, 'load samples could not be written');
          return [];
        });
        for (const { deviceId, time } of early) {
          this.o.log.warn({ deviceId, time: time.toISOString() }, 'load sample dropped: dated before the device was registered');
        }
        for (const deviceId of new Set(samples.map((m) => m.deviceId))) this.o.live?.device(deviceId, 'metrics');
        // (A device gone offline since its ping keeps no latency, and its page hears nothing of it.)
        await repo.setLatencies(latencies).then(
          (written) => written.forEach((deviceId) => this.o.live?.device(deviceId, 'state')),
          (err: Error) => this.o.log.warn({ err: err.message, devices: latencies.size }, 'latencies could not be written'),
        );
      } finally {
        this.flushing = undefined;
      }
    })();
    await this.flushing;
  }

  /**
   * The periodic sweep, put off while this console is behind with device messages, for at most
   * SWEEP_PUT_OFF_MAX_MS: in a reconnect storm on a busy machine, devices whose states and
   * heartbeats waited in the backlog (or at Mosquitto behind it) longer than three heartbeats were
   * swept offline by the thousand although they were back (issue 70). Answers the devices taken
   * offline, or undefined when put off.
   */
  async sweepUnlessBehind(now = new Date()): Promise<string[] | undefined> {
    if (this.o.behind?.()) {
      this.sweepPutOffSince ??= now.getTime();
      if (now.getTime() - this.sweepPutOffSince < SWEEP_PUT_OFF_MAX_MS) {
        this.o.log.info({}, 'silence sweep put off: device messages are waiting to be handled');
        return undefined;
      }
    }
    this.sweepPutOffSince = undefined;
    return this.sweep(now);
  }

  private sweepPutOffSince?: number;

  /** Devices silent for three heartbeats (their last will may have been lost with a broker) go offline. */
  async sweep(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - (this.o.heartbeatSeconds * 3 + 5) * 1000);
    const expired = await this.o.repo.expireSilent(cutoff, now);
    for (const id of expired) this.o.live?.device(id, 'state', { online: false });
    return expired;
  }

  /**
   * `release`: called once this message's handling only waits for a batch, so that other devices'
   * messages are handled meanwhile (DeviceWorkQueue).
   */
  async handle(serverId: string, deviceId: string, message: DeviceMessage, release?: () => void): Promise<void> {
    const now = new Date();
    switch (message.kind) {
      case 'state': {
        const { online } = message.payload;
        const order = stateOrder(message.payload);
        // A heartbeat still waiting to be written must not bring it back (an old server's last
        // will, not believed, costs it one heartbeat), nor a latency measured before it went.
        if (!online) {
          this.beats.delete(deviceId);
          this.latencies.delete(deviceId);
        }
        // An agent older than issue 60 sends no order: its state is applied as it comes.
        if (order === undefined) return this.applyAlone({ deviceId, serverId, online, order, at: now });
        release?.();
        return this.states.add({ deviceId, serverId, online, order, at: now });
      }
      case 'heartbeat':
        this.beats.set(deviceId, now);
        this.scheduleFlush();
        this.maybePing(deviceId, serverId, false);
        return;
      case 'properties': {
        const { properties, addresses, drives, monitors } = message.payload;
        // Proof of life like a heartbeat, written with them.
        this.beats.set(deviceId, now);
        this.scheduleFlush();
        // The readings are a statement of their own: written before the job gives its place up, so
        // that no more than the handlers' concurrency wait for the traffic pool. A failure to
        // write them fails the message, once its report is written.
        const readingsFailed = monitors && (await this.o.monitorReadings?.recordReadings(deviceId, monitors, now).then(() => undefined, (err: Error) => err));
        release?.();
        // (A device deleted meanwhile: the update touches no row.)
        const changed = await this.reports.add({ id: deviceId, properties, addresses, drives });
        if (changed instanceof Error) throw changed;
        if (readingsFailed) throw readingsFailed;
        // A page hears of what changed: the same report at each reconnect is no news.
        if (changed || monitors?.length) this.o.live?.device(deviceId, 'reported');
        return;
      }
      case 'metrics': {
        const time = new Date(message.payload.time);
        // A device's clock may run a little ahead; a sample from further on would sit on the chart for good.
        if (time.getTime() > now.getTime() + METRIC_CLOCK_SKEW_MS) {
          this.o.log.warn({ deviceId, serverId, time: message.payload.time }, 'load sample dropped: dated in the future');
          return;
        }
        this.samples.push({ deviceId, time, systemLoad: message.payload.systemLoad, heardAt: now });
        this.scheduleFlush();
        return;
      }
    }
  }

  /**
   * A batch of state messages, written in one statement; then, for those applied, what a device
   * coming online needs: its latency ping, its placement checked, its monitors and tunnels.
   */
  private async writeStates(states: StateMessage[]): Promise<void[]> {
    const done = states.map(() => undefined);
    let applied: Awaited<ReturnType<TelemetryRepository['applyStates']>>;
    try {
      applied = await this.o.repo.applyStates(states);
    } catch (err) {
      // (Another console's statement on the same rows, say): each on its own then, as before batches.
      this.o.log.warn({ err: (err as Error).message, states: states.length }, 'states not written together: written one by one');
      for (const s of states) {
        await this.applyAlone(s).catch((e: Error) => this.o.log.warn({ deviceId: s.deviceId, err: e.message }, 'state could not be written'));
      }
      return done;
    }
    const byDevice = new Map(applied.map((a) => [a.deviceId, a]));
    const cameOnline: string[] = [];
    for (const { deviceId, serverId, online } of states) {
      const a = byDevice.get(deviceId);
      if (!a) {
        this.o.log.debug({ deviceId, serverId }, 'state dropped: a newer one was applied, or it is not from its server');
        continue;
      }
      if (a.changed) this.stateChanged(deviceId, online, serverId);
      if (!online) {
        this.lastPing.delete(deviceId);
        continue;
      }
      cameOnline.push(deviceId);
      // A change was claimed as this console's ping by the statement that brought it online.
      if (a.changed) this.ping(deviceId, serverId);
      else this.maybePing(deviceId, serverId, false);
      if (a.assignedTo && a.assignedTo !== serverId) await this.redirect(deviceId, serverId);
    }
    if (cameOnline.length) this.o.onOnline?.(cameOnline);
    return done;
  }

  /**
   * A batch of reports in one statement; when it fails (a report PostgreSQL refuses, say), each on
   * its own, so that one device's bad report costs only its own message (answered as its error).
   */
  private async writeReports(reports: Parameters<DevicesRepository['updateReported']>[0]): Promise<(boolean | Error)[]> {
    try {
      const changed = await this.o.devices.updateReported(reports);
      return reports.map((r) => changed.has(r.id));
    } catch (err) {
      if (reports.length === 1) return [err as Error];
      this.o.log.warn({ err: (err as Error).message, reports: reports.length }, 'reports not written together: written one by one');
      const answers: (boolean | Error)[] = [];
      for (const r of reports) answers.push(await this.o.devices.updateReported([r]).then((one) => one.has(r.id), (e: Error) => e));
      return answers;
    }
  }

  /** One device's state on its own: an older agent's, or the batch's statement failed. */
  private async applyAlone({ deviceId, serverId, online, order, at }: Omit<StateMessage, 'order'> & { order: number | undefined }) {
    // An old server's last will after a migration must not mark the device offline.
    if (!online && !(await this.isAssignedTo(deviceId, serverId))) return;
    const changed = await this.o.repo.applyState(deviceId, online, at, order);
    if (changed === 'stale') return this.o.log.debug({ deviceId, serverId }, 'state dropped: a newer one was applied');
    if (changed) this.stateChanged(deviceId, online, serverId);
    if (!online) {
      this.lastPing.delete(deviceId);
      return;
    }
    this.maybePing(deviceId, serverId, changed);
    if (this.o.onMisplaced && !(await this.isAssignedTo(deviceId, serverId))) await this.redirect(deviceId, serverId);
    this.o.onOnline?.([deviceId]);
  }

  /** A device's online state changed at this console: logged, and told to the pages. */
  private stateChanged(deviceId: string, online: boolean, serverId?: string) {
    this.o.log.info({ deviceId, ...(serverId ? { serverId } : {}) }, online ? 'device online' : 'device offline');
    this.o.live?.device(deviceId, 'state', { online });
  }

  private async isAssignedTo(deviceId: string, serverId: string): Promise<boolean> {
    const assigned = (await this.o.servers.assignments(deviceId)).find((s) => s.type === 'MESSAGE');
    return !assigned || assigned.id === serverId;
  }

  /** A device that came online on a server it is not assigned to (it missed a migration) is sent to its own. */
  private async redirect(deviceId: string, serverId: string) {
    await this.o.onMisplaced?.(deviceId, serverId).catch((err: Error) =>
      this.o.log.warn({ deviceId, serverId, err: err.message }, 'could not redirect a device to its assigned server'),
    );
  }

  private maybePing(deviceId: string, serverId: string, force: boolean) {
    const last = this.lastPing.get(deviceId) ?? 0;
    if (!force && Date.now() - last < this.o.pingSeconds * 1000) return;
    this.lastPing.set(deviceId, Date.now());
    // Consoles sharing the device's heartbeats each find a ping due: the database says which one sends it
    // (a ping forced by a new connection is always sent, and counts as the last).
    this.pingClaims
      .add({ deviceId, seconds: force ? 0 : this.o.pingSeconds })
      .then((mine) => mine && this.ping(deviceId, serverId))
      .catch((err: Error) => this.o.log.debug({ deviceId, err: err.message }, 'ping failed'));
  }

  /** Pings a device whose ping this console claimed; its latency is written with the next heartbeats. */
  private ping(deviceId: string, serverId: string) {
    this.lastPing.set(deviceId, Date.now());
    this.o.hub.ping(deviceId, this.o.hub.connection(serverId)).then(
      (latency) => {
        this.latencies.set(deviceId, latency);
        this.scheduleFlush();
      },
      (err: Error) => this.o.log.debug({ deviceId, err: err.message }, 'ping failed'),
    );
  }
}
