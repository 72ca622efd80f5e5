import { z } from 'zod';
import { deviceIdParamsSchema } from './devices.js';

/**
 * Self-update (issue 32): the installed agent is a launcher (a shell script) plus bundles; it runs
 * the agent bundle of its device's release, and reports where it stands in its properties.
 */

/** The bundle that is the agent itself (its manifest's name): the one an agent installs for itself. */
export const AGENT_BUNDLE_NAME = 'fleetlink-agent';

/** The folder the portable archive of agent {version} unpacks to (the console builds it, the Install page's command runs from it). */
export const agentPortableFolder = (version: string) => `${AGENT_BUNDLE_NAME}-${version}`;

/** The environment variable the agent, its launcher and its installer read the installation key from (never a command line's). */
export const AGENT_KEY_VARIABLE = 'FLEETLINK_AGENT_KEY';

/** A release's agent bundle (the one named AGENT_BUNDLE_NAME), if it holds one. */
export const agentBundleOf = <T extends { name: string }>(bundles: readonly T[]): T | undefined => bundles.find((b) => b.name === AGENT_BUNDLE_NAME);

/** The agent's property keys about its code (SPEC §3), those that say how an update went, and its crash restarts. */
export const AgentProperty = {
  /** The bundle version running now. */
  BundleVersion: 'agent.bundle.version',
  /** The launcher's version ('-' when the agent runs without the installed launcher: no self-update). */
  LauncherVersion: 'agent.launcher.version',
  /** The bundle version the device's release wants: the one running, or the one it updates to or failed to. */
  UpdateBundleVersion: 'update.bundle.version',
  /** CURRENT, UPDATING or FAILED (rolled back, or refused before it ran); absent without self-update. */
  UpdateStatus: 'update.status',
  /** Why the last update failed, while update.status is FAILED. */
  UpdateError: 'update.error',
  /** How often the installed launcher restarted the agent after it crashed or was killed (issue 67); absent without the launcher. */
  Restarts: 'agent.restarts',
  /** How the agent last ended before such a restart ('killed by signal KILL', 'ended with code 1'). */
  LastExit: 'agent.last.exit',
  /** When it did (ISO 8601). */
  LastExitTime: 'agent.last.exit.time',
} as const;

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
