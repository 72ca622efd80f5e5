// The flags the agent's Node.js runs with, one list for both launchers: bin/supervise.mjs takes
// them from here, and the installed shell launcher runs this file from the bundle it starts (it
// prints them), so each bundle brings its own. V8 flags, given at start: NODE_OPTIONS refuses most.
import { fileURLToPath } from 'node:url';

/** The flags for a Node.js version ("24.11.0"). */
export function nodeFlags(version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  return [
    // Node's gc(), which the agent calls when it has been idle a while (src/idle-compaction.ts), to
    // give back the heap it grew while starting or working (issue 73: under 60 MB when idle).
    // Not --optimize-for-size, which saves as much while idle but slows a busy tunnel: the agent's
    // CPU at 4,000 requests/s 23 -> 27 %, p99 25 -> 72 ms.
    '--expose-gc',
    // Node 24's V8 reclaims short-lived Buffers (a tunnel's packets, a transfer's chunks) by
    // mark-compacts unless its young generation keeps the earlier 8 MB limit for them (packages/
    // contract's young-buffers.ts says more). Node 20 does not know the flag.
    ...(major >= 24 ? ['--scavenger-max-new-space-capacity-mb=8'] : []),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(nodeFlags().join(' '));
