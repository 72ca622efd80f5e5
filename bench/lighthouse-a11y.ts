// Lighthouse's accessibility score (issue 71): `npx tsx bench/lighthouse-a11y.ts`.
//
// Lighthouse 12.2.3 (fetched by npx from the npm registry the first time, as bench/lighthouse.ts
// does) on the home page, the device search, a device's summary with its real agent, and an
// organization, signed in as admin@ in Debian's Chromium, at a phone's width (Lighthouse's mobile
// emulation) and a desktop's. Prints each page's score and the audits that failed; exits 1 below 100.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { spawnAgent, tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { admin } from '../e2e/support/accounts.js';
import { CHROMIUM_PATH } from '../e2e/support/browser.js';
import { signInAtProvider } from '../e2e/support/login.js';
import { startStack } from '../e2e/support/stack.js';
import { runLighthouse } from './lighthouse-run.js';

const TARGET = 100;

interface AccessibilityReport {
  finalDisplayedUrl: string;
  categories: { accessibility: { score: number | null; auditRefs: { id: string; weight: number }[] } };
  audits: Record<string, { score: number | null; title: string }>;
}

/** One Lighthouse run of the accessibility category: the score and the titles of the audits that failed. */
async function accessibility(url: string, port: number, preset: 'mobile' | 'desktop'): Promise<{ score: number; failed: string[]; finalUrl: string }> {
  const { report } = await runLighthouse(url, port, ['--only-categories=accessibility', ...(preset === 'desktop' ? ['--preset=desktop'] : [])]);
  const lhr = report as AccessibilityReport;
  const category = lhr.categories.accessibility;
  const failed = category.auditRefs.filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0).map((ref) => `${ref.id} (${lhr.audits[ref.id]!.title})`);
  return { score: Math.round((category.score ?? 0) * 100), failed, finalUrl: lhr.finalDisplayedUrl };
}

async function main() {
  const build = spawnSync('node', ['scripts/build.mjs', '--when-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const stack = await startStack();
  const profile = mkdtempSync(path.join(tmpdir(), 'fleetlink-lighthouse-a11y-'));
  const agentDir = tempDir('fleetlink-lighthouse-agent-');
  let agent: ReturnType<typeof spawnAgent> | undefined;
  try {
    const { access_token: token } = await passwordLogin({ consoleUrl: stack.url, email: admin.email, password: admin.password });
    const call = async (pathname: string, json: unknown) => {
      const res = await fetch(`${stack.url}${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
      if (!res.ok) throw new Error(`POST ${pathname}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; installationId: string };
    };
    const organization = (await call('/api/organization', { type: 'COMPANY', name: 'Bench Co', country: 'NL', address: 'Keizersgracht 1, Amsterdam', email: 'ops@fleetlink.example' })).id;
    const device = await call('/api/device', { organization, name: 'bench-device', branch: 'PRODUCTION' });
    agent = spawnAgent({ server: stack.url, device: device.id, key: device.installationId, dataDir: agentDir });

    const port = await freePort();
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: [`--remote-debugging-port=${port}`] });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${stack.url}/devices/${device.id}`);
    await signInAtProvider(page, admin);
    // The agent has reported: its Summary shows the system it runs on.
    await page.getByText('Operating system').waitFor({ timeout: 60_000 });
    await page.goto('about:blank');

    const pages = [
      ['home', '/'],
      ['device search', '/devices/search'],
      ['device summary', `/devices/${device.id}`],
      ['organization', `/organizations/${organization}`],
    ] as const;
    const misses: string[] = [];
    for (const preset of ['mobile', 'desktop'] as const) {
      for (const [name, pathname] of pages) {
        const { score, failed, finalUrl } = await accessibility(`${stack.url}${pathname}`, port, preset);
        console.log(`${`${name}, ${preset}`.padEnd(26)} accessibility ${String(score).padStart(3)}${failed.length ? `  failed: ${failed.join('; ')}` : ''}`);
        if (!finalUrl.startsWith(`${stack.url}${pathname}`)) misses.push(`${name}: ended on ${finalUrl} (not signed in?)`);
        if (score < TARGET) misses.push(`${name}, ${preset}: ${score}`);
      }
    }
    await context.close();
    console.log(misses.length ? `FAIL: ${misses.join('; ')}` : `PASS: accessibility ${TARGET} on every page`);
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    await agent?.kill('SIGTERM');
    await stack.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(agentDir, { recursive: true, force: true });
  }
}

await main();
