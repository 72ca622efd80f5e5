import { spawn } from 'node:child_process';

/** The Lighthouse the benchmarks run, fetched by npx from the npm registry the first time. */
export const LIGHTHOUSE = 'lighthouse@12.2.3';

/**
 * Runs Lighthouse on `url` in the Chromium listening on `port` and answers its JSON report (and
 * the report as written, to keep). Cookies are kept (`--disable-storage-reset`): the browser is
 * signed in. `extra` adds Lighthouse's own options (categories, preset).
 */
export function runLighthouse(url: string, port: number, extra: string[]): Promise<{ report: unknown; raw: Buffer }> {
  const args = ['--yes', LIGHTHOUSE, url, `--port=${port}`, '--disable-storage-reset', '--output=json', '--output-path=stdout', '--quiet', ...extra];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse ended with ${code}`));
      const raw = Buffer.concat(out);
      const report = JSON.parse(raw.toString()) as { runtimeError?: { message: string } };
      if (report.runtimeError) return reject(new Error(`lighthouse: ${report.runtimeError.message}`));
      resolve({ report, raw });
    });
  });
}
