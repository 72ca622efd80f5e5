// Bundles the standalone proxy's TypeScript into dist/cli.mjs, so that it runs on plain Node: tsx and
// its compiler in the running process cost a proxy about 40 MB of memory. Used by `npm run build` (root
// and this package); the launcher runs the sources through tsx when dist/ is missing or older.
import { renameSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));

export async function buildProxy() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/cli.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'warning',
    // The proxy runs beside its node_modules: its dependencies load from there (ssh2 with its native
    // crypto, pino with its worker threads); only our TypeScript and the contract's are bundled.
    external: ['ssh2', 'pino', 'zod', 'prom-client'],
  });
  const dist = path.join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  // The sources the launcher compares the bundle with (ours and the contract's).
  const sources = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/'));
  writeFileSync(path.join(dist, 'inputs.json'), JSON.stringify(sources));
  // Written under another name and renamed: a proxy starting meanwhile never reads half a bundle.
  const tmp = path.join(dist, `cli.mjs.${process.pid}.tmp`);
  writeFileSync(tmp, result.outputFiles[0].contents);
  renameSync(tmp, path.join(dist, 'cli.mjs'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await buildProxy();
