import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { WORKER_ASSET_PREFIX } from '@fleetlink/contract/web-paths';
import { defineConfig } from 'vite';
import { BOOT_MODULES, DEVICE_LIST } from './vite-plugins/budgets.js';
import { entryClosure } from './vite-plugins/entry-closure.js';
import { firstLoadBudget } from './vite-plugins/first-load-budget.js';
import { mantineCssPerComponent } from './vite-plugins/mantine-css-per-component.js';
import { precompress } from './vite-plugins/precompress.js';

// The config lives in apps/web but is also run from the repository root
// (`vite build --config apps/web/vite.config.ts`), so every path is anchored here.
const root = import.meta.dirname;
const apiServer = 'http://localhost:8080';
/** Libraries and Mantine components that only forms use. */
const FORMS_ONLY =
  /node_modules[\\/](@mantine[\\/]form|react-number-format|i18n-iso-countries)[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/](NumberInput|Select|MultiSelect|TagsInput|Autocomplete|Combobox|PillsInput|Pill|Textarea|Checkbox|Radio|Switch|FileInput|PasswordInput|JsonInput|NumberFormatter|InputsGroupFieldset)[\\/]/;
/** The contract's modules: they build zod schemas as they load. */
const CONTRACT = /[\\/]packages[\\/]contract[\\/]/;
/**
 * Dialogs (with the library that keeps the page from scrolling behind one), lists and the console's
 * form helpers: the device list opens no dialog.
 */
const DIALOGS =
  /@mantine[\\/]core[\\/]esm[\\/]components[\\/](Modal|ModalBase|Drawer|Overlay|List|Accordion)[\\/]|node_modules[\\/](react-remove-scroll|react-remove-scroll-bar|use-sidecar|use-callback-ref|react-style-singleton|get-nonce)[\\/]|[\\/]src[\\/]app[\\/]forms[\\/]/;
/** Tables and their scrolling, in a chunk of their own: the device list shows a grid unless asked for a list. */
const TABLES = /@mantine[\\/]core[\\/]esm[\\/]components[\\/](Table|ScrollArea)[\\/]|[\\/]src[\\/]app[\\/]tables[\\/]/;
// What the bootstrap imports.
const boot = entryClosure(BOOT_MODULES[0]!);

export default defineConfig({
  root,
  // Every `import { z } from 'zod'` of the pages and the contract gets zod set up for the CSP first.
  resolve: { alias: [{ find: /^zod$/, replacement: resolve(root, 'src/app/zod-without-eval.ts') }] },
  plugins: [
    react(),
    mantineCssPerComponent(),
    boot.plugin,
    // Issue 68: what a signed-in user downloads to see the device list, compressed as sent.
    firstLoadBudget([{ ...DEVICE_LIST, modules: [...BOOT_MODULES, ...DEVICE_LIST.modules] }]),
    precompress(),
  ],
  // Workers' scripts by a name of their own: the console sends its Content-Security-Policy with these
  // alone of its scripts, as a worker runs under its own script's (apps/server/src/plugins/asset-headers.ts).
  worker: {
    rolldownOptions: {
      output: { entryFileNames: `${WORKER_ASSET_PREFIX}[name]-[hash].js`, chunkFileNames: `${WORKER_ASSET_PREFIX}[name]-[hash].js` },
    },
  },
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    // Which files the console module needs (dist/.vite/manifest.json): the console server names them
    // in index.html's preload links for a browser someone was signed in with (console-preload.ts).
    manifest: true,
    // Every browser the console supports knows modulepreload: no polyfill in the bootstrap.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Nothing imports the entry's exports (it has none): so the bootstrap's chunk can be index.html's
      // script itself, rather than a second file that only imports it (one request less, issue 68).
      preserveEntrySignatures: false,
      // Second entry: the silent SSO check page (SPEC §9 'served from the assets folder') must be a
      // real file, loaded in a hidden iframe by the console's OIDC client, separate from the SPA's index.html.
      // Its place under root decides its place in dist: /assets/silent-check-sso.html.
      input: {
        main: resolve(root, 'index.html'),
        silent: resolve(root, 'assets/silent-check-sso.html'),
      },
      output: {
        codeSplitting: {
          groups: [
            // Every stylesheet of the console in one file (Mantine's per component, as used, and the
            // console's own; 21 kB as sent): one request on the first load where each page's chunk
            // brought its own, and none when another page opens. CSS modules stay with their
            // components: their class names are code.
            { name: 'styles', test: /(?<!\.module)\.css$/ },
            // zod with the setting that keeps it from trying eval (zod-without-eval.ts), in one chunk: the
            // setting runs as the chunk loads, before any module that builds a schema.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|zod-without-eval/ },
            // Every page needs these and they change far less often than the console: cached across releases.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The tables, their own modules only: what they import is Mantine's core, which common holds
            // (nothing of common imports them, so the two chunks import each other in one direction).
            { name: 'tables', includeDependenciesRecursively: false, test: TABLES },
            // The bootstrap and what it imports, in a chunk of its own whoever else shares it (the
            // console reads cookies too), which is index.html's script: a signed-out visitor loads
            // this, the OIDC client with it, no more.
            { name: 'boot', test: (id) => boot.has(id) },
            // What many pages share (Mantine's common components, the console's own helpers) in one
            // chunk: left to itself the bundler cuts the device list's first load into some seventy
            // small chunks, each a request with its headers (1 kB and more: the security headers).
            // Forms' parts stay out of it (the device list has none): shared by the form pages alone.
            // So does the contract, whose modules build zod schemas as they load: what the device list
            // takes of it (roles, the live socket's constants) loads no schema, so the list loads no zod.
            { name: 'common', minShareCount: 4, test: (id) => !FORMS_ONLY.test(id) && !CONTRACT.test(id) && !DIALOGS.test(id) },
          ],
        },
        // Everything else is split by where it is used: each page (a lazy route) carries its own
        // code, and what several pages share goes into chunks of its own.
      },
    },
  },
  server: {
    port: 5173,
    // In development the API and the built-in identity provider run on the console server.
    proxy: {
      // The live socket first (issue 61). The console takes it only from its own origin (PUBLIC_URL,
      // the console's port in development): the dev server speaks for its pages.
      '/api/live': { target: apiServer, ws: true, configure: (proxy) => proxy.on('proxyReqWs', (req) => req.setHeader('origin', apiServer)) },
      '/api': apiServer,
      '/idp': apiServer,
    },
  },
});
