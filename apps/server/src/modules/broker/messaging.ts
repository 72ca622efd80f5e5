import path from 'node:path';
import type { Database } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { EmbeddedBroker } from './embedded-broker.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { CommandsService } from '../commands/commands.service.js';
import { DevicesRepository } from '../devices/devices.repository.js';
import { DeviceCredentials } from '../enrollment/credentials.js';
import { InstallationKeys } from '../enrollment/installation-keys.js';
import { EnrollmentRepository } from '../enrollment/enrollment.repository.js';
import { EnrollmentService } from '../enrollment/enrollment.service.js';
import { MembershipRepository } from '../organizations/membership.repository.js';
import { OrganizationPolicy } from '../organizations/organization.policy.js';
import { AgentDownloadsService } from '../releases/agent-downloads.service.js';
import { ServersRepository } from '../servers/servers.repository.js';
import { ServersService } from '../servers/servers.service.js';
import { DriveScanService } from '../files/drive-scan.service.js';
import { DriveScansRepository } from '../files/drive-scans.repository.js';
import { FilesService } from '../files/files.service.js';
import { MonitorsRepository } from '../monitors/monitors.repository.js';
import { MonitorsService } from '../monitors/monitors.service.js';
import { TelemetryRepository } from '../telemetry/telemetry.repository.js';
import { TelemetryService } from '../telemetry/telemetry.service.js';
import { BundlesService } from '../releases/bundles.service.js';
import { ReleasesRepository } from '../releases/releases.repository.js';
import { registerBuiltInRelease } from '../releases/built-in-release.js';
import { ReleasesService } from '../releases/releases.service.js';
import { DeviceRevocationsRepository } from '../tunnels/device-revocations.repository.js';
import { ProxyApiService } from '../tunnels/proxy-api.service.js';
import { TunnelProxies } from '../tunnels/tunnel-proxies.js';
import { TunnelsRepository } from '../tunnels/tunnels.repository.js';
import { TunnelsService } from '../tunnels/tunnels.service.js';
import { BlobGate } from '../transfers/blob-gate.js';
import { BlobSweeper } from '../transfers/blob-sweeper.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import { ProxyLiveness } from '../tunnels/proxy-liveness.js';
import { inBatches } from '@fleetlink/contract/in-batches';
import { CommandName, RequestName } from '@fleetlink/contract';
import { RolloutRunner } from '../releases/rollout-runner.js';
import { RolloutsRepository } from '../releases/rollouts.repository.js';
import { RolloutsService } from '../releases/rollouts.service.js';
import { openBlobStore } from '../transfers/blobs/open-blob-store.js';
import { TransfersRepository } from '../transfers/transfers.repository.js';
import { TransfersService } from '../transfers/transfers.service.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { RevocationWatch } from '@fleetlink/proxy';
import { ConsolesBehind } from './consoles-behind.js';
import { DeviceAccounts } from './device-accounts.js';
import { startEmbeddedBroker } from './embedded.js';
import type { HubLog } from './hub-connection.js';
import { MessageHub } from './message-hub.js';
import { LiveBus } from '../live/live-bus.js';
import { liveAfterAction } from '../live/live-actions.js';

/** The messaging part of the console: embedded broker, hub, and the services on top of them. */
export interface Messaging {
  hub: MessageHub;
  /** Takes a device's MQTT account away (devices deleted, keys reset). */
  accounts: DeviceAccounts;
  /** Checks a device's own account (its agent opening a transfer or a terminal relay). */
  credentials: DeviceCredentials;
  devices: DevicesRepository;
  broker?: EmbeddedBroker;
  embeddedServerId?: string;
  servers: ServersService;
  enrollment: EnrollmentService;
  commands: CommandsService;
  files: FilesService;
  driveScans: DriveScanService;
  transfers: TransfersService;
  monitors: MonitorsService;
  tunnels: TunnelsService;
  proxyApi: ProxyApiService;
  blobGate: BlobGate;
  blobSweeper: BlobSweeper;
  uploadMaxBytes: number;
  bundles: BundlesService;
  releases: ReleasesService;
  rollouts: RolloutsService;
  agentDownloads: AgentDownloadsService;
  bundleMaxBytes: number;
  telemetry: TelemetryRepository;
  /** Where the services tell what changed, for the pages' live updates. */
  live: LiveBus;
  enrollPerMinute: number;
  enrollConcurrency: number;
  stop(): Promise<void>;
}

/** A rollout asks this many devices at a time to check their release, each answer awaited this long. */
const NUDGE_PARALLEL = 16;
const NUDGE_TIMEOUT_MS = 60_000;

export async function startMessaging(o: {
  env: Env;
  database: Database;
  box: SecretBox;
  log: HubLog & { error(o: object, m: string): void; warn(o: object, m: string): void; info(o: object, m: string): void };
}): Promise<Messaging> {
  const { env, log } = o;
  const db = o.database.db;
  const serversRepo = new ServersRepository(db, o.box);
  const credentials = await DeviceCredentials.open(db, o.box);
  const embedded = env.MQTT_EMBEDDED_PORT
    ? await startEmbeddedBroker({ db, box: o.box, host: env.MQTT_EMBEDDED_HOST, port: env.MQTT_EMBEDDED_PORT, servers: serversRepo, credentials, log, connectPerSecond: env.MQTT_CONNECT_RATE })
    : undefined;
  const hub = new MessageHub({ servers: serversRepo, log, embeddedServerId: embedded?.serverId, embeddedBroker: embedded?.broker, notices: o.database.notices, maxBacklog: env.MQTT_MAX_BACKLOG, keepaliveSeconds: env.MQTT_KEEPALIVE_SECONDS });
  const revocations = new DeviceRevocationsRepository(db);
  // A device deleted, re-keyed or moved away on any console loses its connection to this one's broker.
  const brokerRevocations = embedded
    ? new RevocationWatch({
        read: (after) => revocations.forServer(embedded.serverId, after),
        who: 'built-in broker',
        log,
        endDevices: (ids) => ids.forEach((id) => embedded.broker.disconnectDevice(id)),
        endAll: () => embedded.broker.disconnectAllDevices(),
      })
    : undefined;
  await brokerRevocations?.start();
  const live = new LiveBus({ db, notices: o.database.notices, log });
  // The silence sweep waits while this console or another is behind with device messages.
  const consolesBehind = new ConsolesBehind({ notices: o.database.notices, own: () => hub.behind(), log });
  hub.onConnectionChange = () => live.connections();
  const audit = new AuditTrail(new AuditRepository(db), log, liveAfterAction(live));
  // (`tunnels` is made below: a move is asked for long after.)
  const servers = new ServersService(serversRepo, hub, credentials, log, audit, (deviceId) => void tunnels.followProxy(deviceId));
  const telemetryRepo = new TelemetryRepository(db);
  const devices = new DevicesRepository(db, new InstallationKeys(o.box));
  const policy = new OrganizationPolicy(new MembershipRepository(db));
  const monitorsRepo = new MonitorsRepository(db);
  const monitors = new MonitorsService({ repo: monitorsRepo, devices, hub, policy, audit, log });
  const tunnelsRepo = new TunnelsRepository(db);
  const tunnels = new TunnelsService({ repo: tunnelsRepo, policy, audit, devices, hub, proxies: new TunnelProxies(serversRepo), domain: env.TUNNEL_DOMAIN, log });
  // What devices send is written through the database's traffic pool: a fleet reconnecting at once
  // keeps it busy, and the API's requests, on the other pool, do not wait behind it.
  const traffic = o.database.traffic;
  const telemetry = new TelemetryService({
    repo: new TelemetryRepository(traffic),
    devices: new DevicesRepository(traffic, new InstallationKeys(o.box)),
    servers: new ServersRepository(traffic, o.box),
    hub,
    locks: o.database.locks,
    log,
    heartbeatSeconds: env.AGENT_HEARTBEAT_SECONDS,
    pingSeconds: env.DEVICE_PING_SECONDS,
    onMisplaced: (deviceId, serverId) => servers.redirect(deviceId, serverId),
    onOnline: (deviceIds) => {
      void monitors.sendListsTo(deviceIds);
      void tunnels.reopenPermanentOf(deviceIds);
    },
    monitorReadings: new MonitorsRepository(traffic),
    live,
    behind: () => consolesBehind.any(),
  });
  hub.handler = telemetry;
  await hub.start();
  telemetry.start();
  consolesBehind.start();
  const accounts = new DeviceAccounts({ servers: serversRepo, hub });
  const enrollment = new EnrollmentService({
    repo: new EnrollmentRepository(db, serversRepo, new InstallationKeys(o.box)),
    servers: serversRepo,
    policy,
    audit,
    credentials,
    hub,
    accounts,
    locks: o.database.locks,
    log,
    heartbeatSeconds: env.AGENT_HEARTBEAT_SECONDS,
    metricsSeconds: env.AGENT_METRICS_SECONDS,
  });
  const blobs = await openBlobStore(env);
  const transfersRepo = new TransfersRepository(db);
  const blobSweeper = new BlobSweeper({ repo: transfersRepo, blobs, log });
  const blobSweeps = new PeriodicTask({
    name: 'blob sweep',
    everyMs: env.BLOB_SWEEP_SECONDS * 1000,
    locks: o.database.locks,
    work: () => blobSweeper.sweep().then(() => undefined),
    log,
  }).start();
  const releasesRepo = new ReleasesRepository(db);
  const bundleStore = await openBlobStore(env, 'bundles');
  const bundles = new BundlesService({ repo: releasesRepo, store: bundleStore, audit, maxBytes: env.BUNDLE_MAX_BYTES });
  // Staged rollouts (issue 65): a wave's online devices are asked to check their release at once,
  // a few at a time in the background; those offline find it at their next check.
  const nudge = (ids: string[]) =>
    void inBatches(ids, NUDGE_PARALLEL, (id) =>
      hub.request(id, RequestName.Command, { name: CommandName.Update, parameters: {} }, { timeoutMs: NUDGE_TIMEOUT_MS }).catch((err: Error) =>
        log.debug({ device: id, err: err.message }, 'rollout: the device was not asked to check its release'),
      ),
    );
  const rolloutsRepo = new RolloutsRepository(db);
  const rollouts = new RolloutsService({ repo: rolloutsRepo, audit, nudge });
  const releases = new ReleasesService({ repo: releasesRepo, audit, credentials, store: bundleStore, rollouts, rolloutsRepo, log });
  const rolloutRunner = new RolloutRunner({ repo: rolloutsRepo, releases: releasesRepo, audit, live, nudge, deadlineMinutes: env.ROLLOUT_UPDATE_DEADLINE_MINUTES });
  const proxyLiveness = new ProxyLiveness({ servers: serversRepo, tunnels: tunnelsRepo, log, live });
  // Every 5 s: a killed proxy's tunnels are shown disconnected within PROXY_SILENCE_MS + 5 s.
  const proxySweeps = new PeriodicTask({ name: 'proxy-silence', everyMs: 5000, locks: o.database.locks, work: () => proxyLiveness.sweep(), log }).start();
  const rolloutTicks = new PeriodicTask({ name: 'rollouts', everyMs: env.ROLLOUT_TICK_MS, locks: o.database.locks, work: () => rolloutRunner.tick(), log }).start();
  if (env.AGENT_BUILT_IN_RELEASE) {
    // A console that cannot pack its agent still starts: its Install page waits for a release, as before.
    await registerBuiltInRelease({ db, repo: releasesRepo, bundles, releases, workDir: env.DATA_DIR, log }).catch((err: Error) =>
      log.warn({ err }, `the built-in release could not be registered (tried again at the next start): ${err.message}`),
    );
  }
  const driveScans = new DriveScanService({ devices, hub, scans: new DriveScansRepository(db), policy, audit, log, live });
  return {
    hub,
    accounts,
    credentials,
    devices,
    broker: embedded?.broker,
    embeddedServerId: embedded?.serverId,
    servers,
    enrollment,
    commands: new CommandsService({ policy, devices, hub, audit }),
    files: new FilesService({ policy, devices, hub, audit }),
    driveScans,
    transfers: new TransfersService({ policy, devices, hub, audit, blobs, repo: transfersRepo, uploadMaxBytes: env.UPLOAD_MAX_BYTES, log }),
    monitors,
    tunnels,
    proxyApi: new ProxyApiService({
      repo: tunnelsRepo,
      servers: serversRepo,
      credentials,
      revocations,
      audit,
      log,
      live,
      onRestart: (proxyServerId) => void tunnels.reopenAfterProxyRestart(proxyServerId),
      liveness: proxyLiveness,
    }),
    blobGate: new BlobGate({ repo: transfersRepo, blobs, credentials }),
    blobSweeper,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    bundles,
    releases,
    rollouts,
    agentDownloads: new AgentDownloadsService({ repo: releasesRepo, store: bundleStore, policy, cacheDir: path.resolve(env.DATA_DIR, 'agent-downloads') }),
    bundleMaxBytes: env.BUNDLE_MAX_BYTES,
    telemetry: telemetryRepo,
    live,
    enrollPerMinute: env.ENROLL_RATE_LIMIT,
    enrollConcurrency: env.ENROLL_CONCURRENCY,
    async stop() {
      brokerRevocations?.stop();
      consolesBehind.stop();
      // The device messages this console has are handled before the batches they wait for stop.
      await hub.drain();
      await telemetry.stop();
      await blobSweeps.stop();
      await rolloutTicks.stop();
      await proxySweeps.stop();
      // A scan still waiting fails when the hub stops, and that is written down before the database goes.
      const scans = driveScans.settled();
      await hub.stop();
      await scans;
      await embedded?.broker.stop();
    },
  };
}
