import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One entry of a hand-made archive: what tar's own packer would never write (`../x`, links) included. */
export interface ArchiveEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'FIFO';
  body?: string | Buffer;
  linkpath?: string;
}

/** A .tar.gz of exactly these entries, header by header (tar's Header encodes and checksums each). */
export function tarGz(entries: ArchiveEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const type = e.type ?? 'File';
    const header = new Header({ path: e.path, type, size: type === 'File' ? body.length : 0, mode: type === 'Directory' ? 0o755 : 0o644, mtime: new Date(0), linkpath: e.linkpath, uid: 0, gid: 0 });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export const manifest = (name: string, version: string): ArchiveEntry => ({ path: 'manifest.json', body: JSON.stringify({ name, version }) });

/** `npm run build:bundle` as a test runs it: the agent of this checkout, packed under `version` into `outDir`; answers the archive's path. */
export function packAgentBundle(version: string, outDir: string): string {
  const script = fileURLToPath(new URL('../../../../agent/pack-bundle.mjs', import.meta.url));
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, BUNDLE_VERSION: version, BUNDLE_OUT_DIR: outDir } });
  if (run.status !== 0) throw new Error(`pack-bundle failed: ${run.stderr}`);
  return run.stdout.match(/agent bundle: (.+)/)![1]!.trim();
}
