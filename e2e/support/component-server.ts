import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, preview, type InlineConfig } from 'vite';
import { mantineCssPerComponent } from '../../apps/web/vite-plugins/mantine-css-per-component';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Builds a component fixture (e2e/fixtures/<name>/index.html) the way the console is built (React
 * plugin, each Mantine component's stylesheet with it, the web app's PostCSS/Mantine setup) and serves it, so a real browser can exercise one
 * component of apps/web without a product page built around it. A production build rather than the
 * dev server: it is quicker to load (no on-demand dependency optimisation) and closer to what ships.
 */
export async function serveFixture(name: string): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = mkdtempSync(path.join(tmpdir(), `fleetlink-fixture-${name}-`));
  const config: InlineConfig = {
    configFile: false,
    root: path.join(root, 'e2e/fixtures', name),
    plugins: [react(), mantineCssPerComponent()],
    css: { postcss: path.join(root, 'apps/web') },
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
    logLevel: 'error',
    clearScreen: false,
  };
  await build(config);
  const server = await preview({ ...config, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('fixture server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
