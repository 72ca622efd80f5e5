import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LANDING_PAGES } from '@fleetlink/contract/web-paths';
import { afterEach, describe, expect, it } from 'vitest';
import { hasSessionHint, preloadLinksFor, preloadPlanOf } from './console-preload.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A web build's folder holding `manifest` as Vite writes it, and an index.html loading `script`. */
function buildWith(manifest: unknown, script = 'assets/main-1.js'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-manifest-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><head><script type="module" crossorigin src="/${script}"></script></head>`);
  return dir;
}

const build = () =>
  buildWith({
    'index.html': { file: 'assets/main-1.js', imports: ['_boot-1.js'], dynamicImports: ['src/app/console.tsx'] },
    '_boot-1.js': { file: 'assets/boot-1.js' },
    'src/app/console.tsx': { file: 'assets/console-1.js', imports: ['_react-1.js', '_common-1.js', '_boot-1.js'], dynamicImports: ['src/features/home/HomePage.tsx'], css: ['assets/console-1.css'] },
    '_react-1.js': { file: 'assets/react-1.js' },
    '_common-1.js': { file: 'assets/common-1.js', imports: ['_react-1.js', '_boot-1.js'], css: ['assets/common-1.css'] },
    'src/features/devices/search/DeviceSearchPage.tsx': { file: 'assets/DeviceSearchPage-1.js', imports: ['_common-1.js', '_DeviceCard-1.js'], css: ['assets/DeviceSearchPage-1.css'] },
    '_DeviceCard-1.js': { file: 'assets/DeviceCard-1.js', imports: ['_react-1.js'] },
    'src/features/devices/detail/DeviceLayout.tsx': { file: 'assets/DeviceLayout-1.js', imports: ['_common-1.js'] },
  });

const DISCOVERY = '<https://idp.example/.well-known/openid-configuration>; rel=preload; as=fetch; crossorigin=anonymous';
const filesIn = (links: string[]) => links.map((link) => /^<\/?([^>]+)>/.exec(link)?.[1]);

describe('the preload links of index.html', () => {
  it('name the console, its stylesheets and the landing page to a browser someone was signed in with: each file once, the bootstrap first', () => {
    const plan = preloadPlanOf(build());
    const links = preloadLinksFor(plan, '/devices/search', true, [DISCOVERY]);
    expect(filesIn(links)).toEqual([
      'assets/main-1.js',
      'assets/boot-1.js',
      'https://idp.example/.well-known/openid-configuration',
      'assets/console-1.js',
      'assets/console-1.css',
      'assets/react-1.js',
      'assets/common-1.js',
      'assets/common-1.css',
      'assets/DeviceSearchPage-1.js',
      'assets/DeviceSearchPage-1.css',
      'assets/DeviceCard-1.js',
    ]);
    // As the console asks for them: scripts as modules, stylesheets with crossorigin as its loader adds them.
    expect(links[0]).toBe('</assets/main-1.js>; rel=modulepreload');
    expect(links[4]).toBe('</assets/console-1.css>; rel=preload; as=style; crossorigin');
    expect(filesIn(preloadLinksFor(plan, '/devices/0b7c2f52-5e0a-4a39-9a55-3c1d3b1d0c11/storage', true, [])).at(-1)).toBe('assets/DeviceLayout-1.js');
    expect(filesIn(preloadLinksFor(plan, '/privacy-policy', true, [])).at(-1)).toBe('assets/common-1.css');
  });

  it("take the page's scripts from index.html, when the build made its entry the bootstrap's chunk", () => {
    // Vite's manifest then lists the entry by its chunk's name, not under index.html.
    const merged = buildWith(
      {
        '_boot-2.js': { file: 'assets/boot-2.js', dynamicImports: ['src/app/console.tsx'] },
        'src/app/console.tsx': { file: 'assets/console-2.js', imports: ['_react-2.js', '_boot-2.js'], css: ['assets/styles-2.css'] },
        '_react-2.js': { file: 'assets/react-2.js' },
      },
      'assets/boot-2.js',
    );
    const plan = preloadPlanOf(merged);
    expect(filesIn(preloadLinksFor(plan, '/devices/search', false, [DISCOVERY]))).toEqual(['assets/boot-2.js', 'https://idp.example/.well-known/openid-configuration']);
    expect(filesIn(preloadLinksFor(plan, '/devices/search', true, []))).toEqual(['assets/boot-2.js', 'assets/console-2.js', 'assets/styles-2.css', 'assets/react-2.js']);
  });

  it('name nothing of the console to a signed-out visitor', () => {
    expect(filesIn(preloadLinksFor(preloadPlanOf(build()), '/devices/search', false, [DISCOVERY]))).toEqual(['assets/main-1.js', 'assets/boot-1.js', 'https://idp.example/.well-known/openid-configuration']);
  });

  it('name only the first question without a manifest (a development server)', () => {
    const plan = preloadPlanOf(path.join(tmpdir(), 'fleetlink-no-such-build'));
    expect(preloadLinksFor(plan, '/devices/search', true, [DISCOVERY])).toEqual([DISCOVERY]);
  });
});

describe('the landing pages', () => {
  it("are the web console's modules", () => {
    for (const { module } of LANDING_PAGES) expect(existsSync(path.resolve(import.meta.dirname, '../../../web', module)), module).toBe(true);
  });

  it("are matched as the router matches them: /devices/new is not a device's page", () => {
    const plan = preloadPlanOf(build());
    expect(filesIn(preloadLinksFor(plan, '/devices/new', true, [])).includes('assets/DeviceLayout-1.js')).toBe(false);
  });
});

describe('the session hint', () => {
  it('is the _fls cookie set to 1, among others', () => {
    expect(hasSessionHint('a=b; _fls=1; c=d')).toBe(true);
    expect(hasSessionHint('_fls=1')).toBe(true);
    expect(hasSessionHint('_fls=0; x_fls=1')).toBe(false);
    expect(hasSessionHint(undefined)).toBe(false);
  });
});
