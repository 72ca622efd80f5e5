#!/usr/bin/env node
// The agent launcher (`npx fleetlink-agent`, `npm start -w apps/agent`, a service unit). It runs the
// bundle in dist/ on plain Node: no tsx, no TypeScript, no node_modules at run time, which is what
// keeps an idle agent small (issue 4: under 60 MB RSS). In a source checkout the bundle is built
// (`npm run build`) or rebuilt here when missing or older than the sources it was made from; only
// when that cannot be done (no esbuild) does it fall back to the sources through tsx.
// `run` runs the agent as a child process that can restart (supervise.mjs); everything else here.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { supervise } from './supervise.mjs';

// The oldest Node.js the agent runs on (package.json, engines; the installer checks it too). Devices
// keep their Node longer than servers: the console needs 24, the agent only this.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`fleetlink-agent needs Node.js 20.19 or newer, this is ${process.version}: install that and run this again.\n`);
  process.exit(1);
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const entry = here('../dist/cli.mjs');
const inputs = here('../dist/inputs.json');
const builder = here('../build.mjs');

/** True when dist/ was built from the sources as they are now (or there are no sources to build). */
function bundleIsCurrent() {
  if (!existsSync(entry)) return false;
  if (!existsSync(builder) || !existsSync(here('../src'))) return true; // an installed package: dist is all there is
  try {
    const built = statSync(entry).mtimeMs;
    const list = JSON.parse(readFileSync(inputs, 'utf8'));
    for (const file of [builder, ...list.map((f) => here(`../${f}`))]) {
      if (!existsSync(file) || statSync(file).mtimeMs > built) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function rebuild() {
  try {
    const { buildAgent } = await import(builder);
    process.stderr.write('fleetlink-agent: building the agent bundle (dist/)\n');
    await buildAgent({ quiet: true });
    return true;
  } catch (err) {
    process.stderr.write(`fleetlink-agent: could not build the bundle (${err.message}); running the sources\n`);
    return false;
  }
}

const runs = process.argv[2] === 'run';
if (bundleIsCurrent() || (await rebuild())) {
  if (runs) supervise(entry, process.argv.slice(2));
  else await import(entry);
} else if (runs) {
  supervise(here('../src/cli.ts'), process.argv.slice(2), ['--import', import.meta.resolve('tsx')]);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
