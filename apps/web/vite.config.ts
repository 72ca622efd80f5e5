import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The config lives in apps/web but is also run from the repository root
// (`vite build --config apps/web/vite.config.ts`), so every path is anchored here.
const root = import.meta.dirname;
const apiServer = 'http://localhost:8080';

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    rolldownOptions: {
      // Second entry: the silent SSO check page (SPEC §9 'served from the assets folder') must be a
      // real file, loaded in a hidden iframe by oidc-client-ts, separate from the SPA's index.html.
      // Its place under root decides its place in dist: /assets/silent-check-sso.html.
      input: {
        main: resolve(root, 'index.html'),
        silent: resolve(root, 'assets/silent-check-sso.html'),
      },
      output: {
        // Libraries change far less often than the console: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            { name: 'icons', test: /node_modules[\\/]@tabler[\\/]/ },
            // Alone, so the silent SSO page loads only what it needs.
            { name: 'oidc', test: /node_modules[\\/](oidc-client-ts|jwt-decode)[\\/]/ },
            // Only /contact loads the CAPTCHA widget (a dynamic import): kept out of what every page loads.
            { name: 'altcha', test: /node_modules[\\/]altcha[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
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
