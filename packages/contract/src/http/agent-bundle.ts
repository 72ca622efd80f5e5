/**
 * What the agent itself needs to know of its bundles and installation, without zod: it reads these
 * as it starts, and an idle agent that never loads zod is about 4 MB lighter (issue 73). The API's
 * schemas around self-update stay in agent-update.ts.
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
