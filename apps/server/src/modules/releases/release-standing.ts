import { agentBundleOf, releaseBranchesFor, type ReleaseStanding } from '@fleetlink/contract';
import type { DeviceAgent, ReleaseRecord } from './releases.repository.js';

const agentVersion = (r: ReleaseRecord) => agentBundleOf(r.bundles)?.version;

/**
 * Where each release stands (issue 32), `releases` newest first. Each device counts once: as running
 * the newest release of its branches whose agent bundle it runs; and, when that is not its newest
 * release (the one it should run), under the newest as updating, failed or waiting, by what its agent
 * last reported. Releases without an agent bundle, and devices whose agent never reported, count nowhere.
 */
export function releaseStandings(releases: ReleaseRecord[], devices: DeviceAgent[]): ReleaseStanding[] {
  const standings = releases.map(() => ({ running: 0, updating: 0, failed: 0, waiting: 0 }));
  for (const d of devices) {
    const follows = releaseBranchesFor[d.branch];
    const mine = releases.map((r, i) => ({ i, version: agentVersion(r) })).filter(({ i, version }) => version && follows.includes(releases[i]!.branch));
    const running = mine.find((r) => r.version === d.bundleVersion);
    if (running) standings[running.i]!.running++;
    const newest = mine[0];
    if (!newest || newest === running) continue;
    const toNewest = d.updateVersion === newest.version;
    if (toNewest && d.updateStatus === 'UPDATING') standings[newest.i]!.updating++;
    else if (toNewest && d.updateStatus === 'FAILED') standings[newest.i]!.failed++;
    else standings[newest.i]!.waiting++;
  }
  return standings;
}
