// Bundles the agent into dist/ (plain Node, no tsx, no node_modules at run time): minified ESM with
// the enrollment code split out, since a running agent loads it only when it has to enroll.
// Used by `npm run build` (root and this package) and by the launcher when dist/ is missing or stale.
import { rmSync } from 'node:fs';
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

export async function buildAgent({ quiet = false } = {}) {
  rmSync(`${root}dist`, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [contractHasNoSideEffects],
    // CommonJS dependencies (mqtt) require() Node's built-ins.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { metafile } = await buildAgent();
  if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(metafile));
}
