import { accountRoutes } from './accounts.js';
import { agentDownloadRoutes } from './agent-update.js';
import { alertRoutes } from './alerts.js';
import { apiTokenRoutes } from './api-tokens.js';
import { auditTrailRoutes } from './audit.js';
import { commandRoutes } from './commands.js';
import { contactRoutes } from './contact.js';
import { deviceRoutes } from './devices.js';
import { fileRoutes } from './files.js';
import { invoiceRoutes } from './invoices.js';
import { jobRoutes } from './jobs.js';
import { monitorRoutes } from './monitors.js';
import { organizationRoutes } from './organizations.js';
import { proxyRoutes } from './proxy.js';
import { releaseRoutes } from './releases.js';
import { rolloutRoutes } from './rollouts.js';
import type { DeclaredErrorStatus } from './route-errors.js';
import { enrollmentRoutes, metricsRoutes, serverRoutes } from './servers.js';
import { transferRoutes } from './transfers.js';
import { tunnelRoutes } from './tunnels.js';

/** Liveness, readiness, the SPA's settings and the signed-in user. */
export const systemInfoRoutes = {
  health: { method: 'GET', path: '/api/health' },
  ready: { method: 'GET', path: '/api/ready', errors: [503] },
  config: { method: 'GET', path: '/api/config' },
  me: { method: 'GET', path: '/api/me', role: 'LOGIN' },
} as const;

/**
 * Every route of the API, by capability. A route's operationId in the OpenAPI document is its
 * group and its name here (`devices` + `search` = `devicesSearch`), so it stays the same as long as
 * the route keeps its name; a test fails when a route is served but missing here, or listed but not served.
 */
export const apiRoutes = {
  system: systemInfoRoutes,
  devices: deviceRoutes,
  organizations: organizationRoutes,
  invoices: invoiceRoutes,
  contact: contactRoutes,
  audit: auditTrailRoutes,
  servers: serverRoutes,
  enrollment: enrollmentRoutes,
  metrics: metricsRoutes,
  commands: commandRoutes,
  files: fileRoutes,
  transfers: transferRoutes,
  monitors: monitorRoutes,
  tunnels: tunnelRoutes,
  proxy: proxyRoutes,
  releases: releaseRoutes,
  rollouts: rolloutRoutes,
  agentDownloads: agentDownloadRoutes,
  apiTokens: apiTokenRoutes,
  jobs: jobRoutes,
  alerts: alertRoutes,
  accounts: accountRoutes,
} as const;

export interface ApiOperation {
  operationId: string;
  method: string;
  /** In OpenAPI's form, under /api: `/api/device/{id}`. */
  path: string;
  /** The error statuses the route declares beyond those its shape implies. */
  errors: readonly DeclaredErrorStatus[];
  /** A one-time link's route: an id that names nothing is refused like a used link, never a 404. */
  oneTimeLink: boolean;
}

interface RouteEntry {
  readonly method: string;
  readonly path: string;
  readonly errors?: readonly DeclaredErrorStatus[];
  readonly oneTimeLink?: boolean;
}

/** The table as a flat list, keyed as the OpenAPI document keys its operations. */
export function apiOperations(): ApiOperation[] {
  return Object.entries(apiRoutes).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, RouteEntry>).map(([name, route]) => ({
      operationId: `${group}${name[0].toUpperCase()}${name.slice(1)}`,
      method: route.method,
      // Some tables are written relative to /api (they predate this one).
      path: (route.path.startsWith('/api/') ? route.path : `/api${route.path}`).replace(/:(\w+)/g, '{$1}'),
      errors: route.errors ?? [],
      oneTimeLink: route.oneTimeLink ?? false,
    })),
  );
}
