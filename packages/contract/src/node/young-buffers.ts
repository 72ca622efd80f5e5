import { setFlagsFromString } from 'node:v8';

/**
 * Node.js 24's V8 (13.6) raised the young generation's limit for ArrayBuffer memory from 8 to 32 MB,
 * above the 64 MB of external memory at which a full mark-compact starts: short-lived Buffers (a
 * tunnel's SSH packets, a transfer's chunks) are then reclaimed by mark-compacts instead of cheap
 * scavenges (nodejs/node#61967 and #63863). TCP through a tunnel fell from 363 to 247 MB/s on this
 * machine (bench/tunnel-tcp.ts), a 2 GiB upload from 466 to 177 MB/s (bench/file-transfer.ts);
 * with the earlier limit restored both are back. Set here at the start of a small process (the agent,
 * the standalone proxy), before its heap has grown; the console, which holds a large heap (PGlite)
 * by the time it could call this, takes the same flag on its command line (package.json `serve`),
 * where it always takes. On Node before 24 the limit is 8 MB already (and the flag unknown).
 */
export function keepShortLivedBuffersYoung(): void {
  if (Number(process.versions.node.split('.')[0]) >= 24) setFlagsFromString('--scavenger-max-new-space-capacity-mb=8');
}
