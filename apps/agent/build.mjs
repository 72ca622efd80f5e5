// Bundles the agent into dist/ (plain Node, no tsx, no node_modules at run time): minified ESM with
// the enrollment code split out, since a running agent loads it only when it has to enroll.
// Used by `npm run build` (root and this package) and by the launcher when dist/ is missing or stale.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The contract's modules only build schemas: a module none of whose exports the agent uses can
 * go (the web forms, the devices and organizations API), which the package does not declare itself.
 */
const contractHasNoSideEffects = {
  name: 'contract-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /^@fleetlink\/contract$|^\.\.?\// }, async (args) => {
      if (args.pluginData?.skip || (!args.importer.includes('/packages/contract/') && !args.path.startsWith('@fleetlink/contract'))) return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { skip: true } });
      if (r.errors.length) return { errors: r.errors };
      return { ...r, sideEffects: false };
    });
  },
};

/**
 * zod's messages in English only. zod re-exports all its locales (z.locales: 258 kB of the bundle's
 * 443 kB of zod) and the agent uses none but English, zod's default; every kilobyte of a chunk the
 * agent loads at start is parsed and kept (issue 73: an idle agent's memory).
 */
const zodInEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: path.join(args.resolveDir, '../locales/en.js'), namespace: 'zod-locales' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: path.dirname(args.path) }));
  },
};

/**
 * Node's own parts where mqtt.js brings copies for browsers: readable-stream is Node's streams
 * rewritten for browsers (76 kB), and worker-timers runs timers in a Web Worker, which mqtt.js uses
 * only in a browser (with @babel/runtime, broker-factory and event-target-shim: 34 kB). Each kilobyte
 * the agent loads at start it parses and keeps (issue 73: an idle agent's memory).
 */
const nodeInsteadOfBrowserCopies = {
  name: 'node-instead-of-browser-copies',
  setup(build) {
    build.onResolve({ filter: /^readable-stream$/ }, () => ({ path: 'node:stream', external: true }));
    build.onResolve({ filter: /^worker-timers$/ }, () => ({ path: 'worker-timers', namespace: 'node-timers' }));
    build.onLoad({ filter: /.*/, namespace: 'node-timers' }, () => ({ contents: 'export const { setInterval, clearInterval, setTimeout, clearTimeout } = globalThis;' }));
  },
};

/**
 * mqtt.js's debug output (the `debug` package, DEBUG=mqttjs*) only when DEBUG asks for it. Loading
 * `debug` loads node:tty and asks whether stdout and stderr are terminals, which an idle agent then
 * carries (issue 73); without DEBUG the agent takes a silent one. The real one is still in the
 * bundle, evaluated only when required.
 */
const debugOnlyWhenAsked = {
  name: 'debug-only-when-asked',
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) => (args.namespace === 'debug-when-asked' ? undefined : { path: 'debug', namespace: 'debug-when-asked' }));
    build.onLoad({ filter: /.*/, namespace: 'debug-when-asked' }, () => ({
      contents: `const silent = Object.assign(() => {}, { enabled: false, log() {}, destroy() {}, extend: () => silent });
module.exports = process.env.DEBUG ? require('debug') : Object.assign(() => silent, { enable() {}, disable: () => '', enabled: () => false });`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * Builds into dist/. Agents started at the same moment (tests, a fleet on one machine) may build
 * at once: every file is written to a temporary name and renamed, the entry point last, so a
 * reader never sees a half-written bundle; leftovers of older builds are removed afterwards.
 */
export async function buildAgent({ quiet = false } = {}) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node the agent runs on (package.json, engines): devices keep theirs longer than
    // the console, which runs on 24.
    target: 'node20.19',
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [contractHasNoSideEffects, zodInEnglishOnly, nodeInsteadOfBrowserCopies, debugOnlyWhenAsked],
    // ssh2's optional native parts: it falls back to its JavaScript crypto when they are missing;
    // ws's optional native helpers, likewise (it has JavaScript for both).
    external: ['cpu-features', '*.node', 'bufferutil', 'utf-8-validate'],
    // CommonJS dependencies (mqtt, ssh2) require() Node's built-ins; ssh2 looks for its optional
    // native part beside itself (__dirname): see copySshCrypto.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fp } from 'node:url'; const require = __cr(import.meta.url); const __dirname = __fp(new URL('.', import.meta.url));",
    },
  });
  const dist = path.join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  // Sources the launcher checks for staleness: ours and the contract's, not node_modules, nor the
  // modules the plugins above make up (`namespace:path`), which are no files to check.
  const sources = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/') && !/^[a-z-]+:/.test(f));
  const files = [...result.outputFiles.map((f) => ({ path: f.path, contents: f.contents })), { path: path.join(dist, 'inputs.json'), contents: JSON.stringify(sources) }];
  const entry = path.join(dist, 'cli.mjs');
  files.sort((a, b) => (a.path === entry ? 1 : 0) - (b.path === entry ? 1 : 0));
  for (const f of files) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  copySshCrypto(dist);
  copyPty(dist);
  const keep = new Set(files.map((f) => path.basename(f.path)));
  for (const name of readdirSync(dist)) {
    if (!keep.has(name) && name.endsWith('.mjs')) rmSync(path.join(dist, name), { force: true });
  }
  return result;
}

/**
 * ssh2's native crypto (AES-GCM without a new cipher object per packet), built by npm for this
 * machine, goes beside the bundle where ssh2 looks for it. It took the agent's share of a tunnel at
 * 4,000 requests/s from 39 % to 27 % of a core, and TCP through a tunnel from about 250 to 430 MB/s
 * (issue 30). Where it does not load (another Node version or platform, or npm could not build it)
 * ssh2 uses its JavaScript crypto, as the agent always did.
 */
function copySshCrypto(dist) {
  const from = path.join(path.dirname(createRequire(import.meta.url).resolve('ssh2/lib/protocol/crypto.js')), 'crypto/build/Release/sshcrypto.node');
  const to = path.join(dist, 'crypto/build/Release/sshcrypto.node');
  copyNative(from, to);
}

/** A native part into the bundle, under a temporary name first (agents may build at once); gone when there is none. */
function copyNative(from, to) {
  if (!existsSync(from)) return rmSync(to, { force: true });
  mkdirSync(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.tmp`;
  copyFileSync(from, tmp);
  renameSync(tmp, to);
}

/**
 * node-pty's native part (issue 63: the web terminal), built by npm for this machine, goes where
 * node-pty looks for it in a bundle: `build/Release/` beside the bundle's files. Without it (npm
 * could not build it) the agent runs as before and refuses terminals, saying why.
 */
function copyPty(dist) {
  const from = path.join(path.dirname(createRequire(import.meta.url).resolve('node-pty/package.json')), 'build/Release/pty.node');
  const to = path.join(dist, 'build/Release/pty.node');
  copyNative(from, to);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { metafile } = await buildAgent();
  if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(metafile));
}
