import { z } from 'zod';
import { deviceIdParamsSchema } from './devices.js';

/**
 * Self-update (issue 32): the installed agent is a launcher (a shell script) plus bundles; it runs
 * the agent bundle of its device's release, and reports where it stands in its properties. The names
 * and property keys the agent reads as it starts are in agent-bundle.ts, which builds no schema.
 */

export const updateStatuses = ['CURRENT', 'UPDATING', 'FAILED'] as const;
export type UpdateStatus = (typeof updateStatuses)[number];

/** Where one release stands on the devices that follow its branch (the releases page). */
export const releaseStandingSchema = z.object({
  /** Devices running its agent bundle. */
  running: z.number().int(),
  /** Devices for which it is the newest release, downloading or trying its bundle. */
  updating: z.number().int(),
  /** Devices for which it is the newest release, whose update to it failed (rolled back). */
  failed: z.number().int(),
  /** Devices for which it is the newest release, that have not started on it yet (offline, or not asked yet). */
  waiting: z.number().int(),
});
export type ReleaseStanding = z.infer<typeof releaseStandingSchema>;

/** What the Install page offers (issue 32): built by the console from the release's agent bundle. */
export const agentDownloadKinds = ['installer', 'portable'] as const;
export type AgentDownloadKind = (typeof agentDownloadKinds)[number];

export const agentDownloadSchema = z.object({
  kind: z.enum(agentDownloadKinds),
  /** The file name it is saved under. */
  name: z.string(),
  /** Its real size in bytes (SPEC §9: shown in base-1024 units). */
  size: z.number().int(),
});
export type AgentDownload = z.infer<typeof agentDownloadSchema>;

/** The downloads of one device: its branch's release and what is built from it; `release` null while there is none. */
export const agentDownloadsSchema = z.object({
  release: z.object({ branch: z.string(), version: z.string(), bundleVersion: z.string(), builtIn: z.boolean() }).nullable(),
  downloads: z.array(agentDownloadSchema),
});
export type AgentDownloads = z.infer<typeof agentDownloadsSchema>;

export const agentDownloadParamsSchema = deviceIdParamsSchema.extend({ kind: z.enum(agentDownloadKinds, { error: `The download is one of ${agentDownloadKinds.join(', ')}.` }) });

/** The Install page's downloads (a member of the device's organization; the files hold no secret). */
export const agentDownloadRoutes = {
  list: { method: 'GET', path: '/api/device/:id/agent-downloads' },
  file: { method: 'GET', path: '/api/device/:id/agent-download/:kind' },
} as const;
