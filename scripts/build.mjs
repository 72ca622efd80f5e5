// `npm run build` (everything, always) and `npm start` (`--when-stale`: the web console only when its
// sources changed since its last build). The web build is the one whose output a person sees change
// (new asset names, a browser reload); the agent and the proxy bundles are built in under a second
// and their launchers check them again, so they are always built.
// The web build's inputs are fingerprinted by content, not by time: a `git checkout` or a fresh clone
// touches every file's time without changing what is built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const webDist = path.join(root, 'apps/web/dist');
// Beside, not in, dist: whatever is in dist is served to every browser.
const stampFile = path.join(root, 'node_modules/.cache/fleetlink/web-build-inputs.sha256');
/** What the web console is built from: its own files, the contract it imports, the locked dependencies. */
const webInputs = ['apps/web', 'packages/contract', 'package-lock.json'];
const skipped = new Set(['node_modules', 'dist']);

function filesUnder(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { withFileTypes: true })
    .filter((e) => !skipped.has(e.name))
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(relative, e.name)) : e.isFile() ? [path.join(relative, e.name)] : []));
}

function webInputsFingerprint() {
  const hash = createHash('sha256');
  for (const file of webInputs.flatMap(filesUnder).sort()) {
    hash.update(file + '\0');
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function run(workspace) {
  const npm = process.env.npm_execpath;
  // Under npm, its own CLI (the same npm); run directly, the npm on PATH.
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'build', '-w', workspace]] : ['npm', ['run', 'build', '-w', workspace]];
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const whenStale = process.argv.includes('--when-stale');
const fingerprint = webInputsFingerprint();
const current = existsSync(path.join(webDist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === fingerprint;
if (whenStale && current) {
  process.stdout.write('Web console: the build in apps/web/dist is current, not rebuilt.\n');
} else {
  process.stdout.write(existsSync(path.join(webDist, 'index.html')) ? 'Web console: building (apps/web/dist)…\n' : 'Web console: building for the first time (apps/web/dist)…\n');
  run('apps/web');
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, fingerprint + '\n');
}
process.stdout.write('Agent and tunnel proxy bundles: building…\n');
run('apps/agent');
run('apps/proxy');
