// Packs the agent into a bundle (issue 31): a .tar.gz with manifest.json (name, version) at its top,
// and the agent as an installed package runs it: bin/ (the Node launcher), dist/ (the built agent,
// with ssh2's native crypto), package.json, and launcher/ (the installed agent's shell launcher and
// installer, which the console builds the Install page's downloads from, issue 32). `npm run build:bundle` builds the agent and writes
// bundles/fleetlink-agent-{version}.tar.gz; tests pack the same real code under other versions.
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create } from 'tar';
import { buildAgent } from './build.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The contract's AGENT_BUNDLE_NAME (this script runs on plain Node, without the TypeScript contract). */
export const AGENT_BUNDLE_NAME = 'fleetlink-agent';

/**
 * Builds the agent and packs it; answers the archive's path. `version` defaults to the package's,
 * `outDir` to bundles/. A staging folder holds only what the bundle is: nothing else of the checkout
 * (sources, node_modules, the build's inputs.json) goes in.
 */
export async function packAgentBundle({ version, outDir = path.join(root, 'bundles'), quiet = true } = {}) {
  await buildAgent({ quiet });
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const v = version ?? pkg.version;
  mkdirSync(outDir, { recursive: true });
  const stage = path.join(outDir, `.stage-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(stage);
    writeFileSync(path.join(stage, 'manifest.json'), `${JSON.stringify({ name: AGENT_BUNDLE_NAME, version: v }, null, 2)}\n`);
    // The agent reports its version from package.json: the bundle's says the bundle's version.
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify({ name: pkg.name, version: v, type: 'module', bin: pkg.bin, engines: pkg.engines }, null, 2)}\n`);
    for (const dir of ['bin', 'dist', 'launcher']) {
      cpSync(path.join(root, dir), path.join(stage, dir), { recursive: true, filter: (p) => !p.endsWith('inputs.json') && !p.endsWith('.tmp') });
    }
    const file = path.join(outDir, `${AGENT_BUNDLE_NAME}-${v}.tar.gz`);
    const tmp = `${file}.${process.pid}.tmp`;
    await create({ gzip: true, file: tmp, cwd: stage, portable: true }, ['manifest.json', 'package.json', 'bin', 'dist', 'launcher']);
    renameSync(tmp, file);
    return file;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // BUNDLE_VERSION and BUNDLE_OUT_DIR: the same code under another version, elsewhere (tests).
  const file = await packAgentBundle({ version: process.env.BUNDLE_VERSION || undefined, outDir: process.env.BUNDLE_OUT_DIR || undefined, quiet: false });
  console.log(`agent bundle: ${file}`);
}
