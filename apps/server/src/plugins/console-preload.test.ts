import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleFilesOf, hasSessionHint, preloadLinksOf } from './console-preload.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A web build's folder holding `manifest` as Vite writes it. */
function buildWith(manifest: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-manifest-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe("the console's files to preload", () => {
  it('are the console module, what it imports and their stylesheets, but for what index.html loads itself', () => {
    const spa = buildWith({
      'index.html': { file: 'assets/main-1.js', imports: ['_boot-1.js'], dynamicImports: ['src/app/console.tsx'] },
      '_boot-1.js': { file: 'assets/boot-1.js' },
      'src/app/console.tsx': { file: 'assets/console-1.js', imports: ['_react-1.js', '_common-1.js', '_boot-1.js'], dynamicImports: ['src/features/home/HomePage.tsx'], css: ['assets/console-1.css'] },
      '_react-1.js': { file: 'assets/react-1.js' },
      '_common-1.js': { file: 'assets/common-1.js', imports: ['_react-1.js', '_boot-1.js'], css: ['assets/common-1.css'] },
      'src/features/home/HomePage.tsx': { file: 'assets/HomePage-1.js', imports: ['_common-1.js'] },
    });
    expect(consoleFilesOf(spa)).toEqual(['assets/console-1.js', 'assets/console-1.css', 'assets/react-1.js', 'assets/common-1.js', 'assets/common-1.css']);
  });

  it('are none without a manifest (a development server) or a console in it', () => {
    expect(consoleFilesOf(path.join(tmpdir(), 'fleetlink-no-such-build'))).toEqual([]);
    expect(consoleFilesOf(buildWith({ 'index.html': { file: 'assets/main-1.js' } }))).toEqual([]);
  });

  it('are linked as the console asks for them: scripts as modules, stylesheets with crossorigin', () => {
    expect(preloadLinksOf(['assets/react-1.js', 'assets/console-1.css'])).toEqual(['</assets/react-1.js>; rel=modulepreload', '</assets/console-1.css>; rel=preload; as=style; crossorigin']);
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
