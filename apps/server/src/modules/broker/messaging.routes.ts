import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { commandsRoutes } from '../commands/commands.routes.js';
import { filesRoutes } from '../files/files.routes.js';
import { enrollmentRoutes } from '../enrollment/enrollment.routes.js';
import { blobRoutes } from '../transfers/blob.routes.js';
import { transfersRoutes } from '../transfers/transfers.routes.js';
import { releasesRoutes } from '../releases/releases.routes.js';
import { serversRoutes } from '../servers/servers.routes.js';
import { monitorsRoutes } from '../monitors/monitors.routes.js';
import { metricsRoutes } from '../telemetry/metrics.routes.js';
import { proxyApiRoutes } from '../tunnels/proxy-api.routes.js';
import { tunnelsRoutes } from '../tunnels/tunnels.routes.js';
import type { ConsoleMetrics } from '../system/console-metrics.js';
import type { Messaging } from './messaging.js';

/** Routes of servers, agent enrollment, commands, files, transfers, monitors, tunnels (and the proxies' API), metrics, bundles and releases. */
export const messagingRoutes: FastifyPluginAsync<{ messaging: Messaging; policy: OrganizationPolicy; rateLimitStore: FastifyRateLimitStoreCtor; metrics?: ConsoleMetrics }> = async (
  app,
  { messaging, policy, rateLimitStore, metrics },
) => {
  await app.register(serversRoutes, { service: messaging.servers });
  await app.register(enrollmentRoutes, {
    service: messaging.enrollment,
    perMinute: messaging.enrollPerMinute,
    concurrency: messaging.enrollConcurrency,
    store: rateLimitStore,
    onRefused: metrics && ((status) => metrics.enrollmentRefused(status)),
  });
  await app.register(commandsRoutes, { service: messaging.commands });
  await app.register(filesRoutes, { files: messaging.files, scans: messaging.driveScans });
  await app.register(transfersRoutes, { service: messaging.transfers, uploadMaxBytes: messaging.uploadMaxBytes });
  await app.register(monitorsRoutes, { service: messaging.monitors });
  await app.register(tunnelsRoutes, { service: messaging.tunnels });
  await app.register(proxyApiRoutes, { service: messaging.proxyApi });
  await app.register(blobRoutes, { gate: messaging.blobGate });
  await app.register(metricsRoutes, { repo: messaging.telemetry, policy });
  await app.register(releasesRoutes, { bundles: messaging.bundles, releases: messaging.releases, rollouts: messaging.rollouts, downloads: messaging.agentDownloads, bundleMaxBytes: messaging.bundleMaxBytes });
};
