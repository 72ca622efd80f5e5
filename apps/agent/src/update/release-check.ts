import { agentReleaseRoutes, readAgentRelease, type AgentRelease } from '@fleetlink/contract';
import { getBlob } from '../files/blob-http.js';
import type { AgentState } from '../store.js';

/**
 * Asks the console which release this device should run (issue 31): the newest of the release
 * branches its device branch follows, with each bundle's SHA-256. The device's own account signs
 * the request, so it learns only its own. Self-update (issue 32) installs what this answers.
 */
export async function fetchRelease(state: AgentState, signal: AbortSignal = AbortSignal.timeout(30_000)): Promise<AgentRelease> {
  const endpoint = { consoleUrl: state.consoleUrl, username: state.mqtt.username, password: state.mqtt.password };
  const res = await getBlob(endpoint, agentReleaseRoutes.agentRelease.path, signal, "the device's release");
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return readAgentRelease(JSON.parse(text));
}

/** How `fleetlink-agent release` says it. */
export function describeRelease({ release, waiting }: AgentRelease): string {
  const then = waiting ? `Waiting for wave ${waiting.wave} of the rollout of ${waiting.branch} ${waiting.version} (${waiting.state.toLowerCase()}, wave ${waiting.started} started).\n` : '';
  if (!release) return `No release for this device's branch yet.\n${then}`;
  const bundles = release.bundles.map((b) => `  ${b.name} ${b.version}  sha256 ${b.sha256}  ${b.size} bytes\n`).join('');
  return `${release.branch} ${release.version}\n${bundles}${then}`;
}
