import { setFlagsFromString } from 'node:v8';

/**
 * Node.js 24's V8 (13.6) raised the young generation's limit for ArrayBuffer memory from 8 to 32 MB,
 * above the 64 MB of external memory at which a full mark-compact starts: short-lived Buffers (a
 * tunnel's SSH packets, a transfer's chunks) are then reclaimed by mark-compacts instead of cheap
 * scavenges (nodejs/node#61967 and #63863). TCP through a tunnel fell from 363 to 247 MB/s on this
 * machine (bench/tunnel-tcp.ts), a 2 GiB upload from 466 to 177 MB/s (bench/file-transfer.ts);
 * with the earlier limit restored both are back. As a flag on the command line it always takes: the
 * console has it there (package.json `serve`, `dev`), and so does the agent (its launchers:
 * bin/supervise.mjs and launcher/fleetlink-agent). Set at run time it takes only while the heap is
 * still small (the console's, holding PGlite by then, ignored it): the standalone proxy, which runs
 * in its launcher's process, sets it here first thing. On Node before 24 the limit is 8 MB already
 * (and the flag unknown).
 */
export function keepShortLivedBuffersYoung(): void {
  if (Number(process.versions.node.split('.')[0]) >= 24) setFlagsFromString('--scavenger-max-new-space-capacity-mb=8');
}
