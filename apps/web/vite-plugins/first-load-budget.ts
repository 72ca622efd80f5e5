import path from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { brotliBest } from './precompress.js';

export interface FirstLoad {
  /** What is shown, for the report. */
  page: string;
  /** The modules that page loads, from the entry on (the entry, then each dynamic import on the way), relative to the web root. */
  modules: string[];
  /** Budgets in bytes as sent (brotli). */
  maxJsBytes: number;
  maxCssBytes: number;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Every chunk a page loads: the chunks holding its modules and, transitively, what they import statically. */
function chunksOf(bundle: OutputBundle, root: string, modules: string[]): OutputChunk[] {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
  const found = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (found.has(chunk.fileName)) return;
    found.set(chunk.fileName, chunk);
    for (const name of chunk.imports) visit(bundle[name] as OutputChunk);
  };
  for (const module of modules) {
    const id = path.resolve(root, module);
    const chunk = chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`first-load budget: no chunk holds ${module}`);
    visit(chunk);
  }
  return [...found.values()];
}

/**
 * Fails the build when what a page loads first, compressed as it is sent, is over its budget, and
 * prints each chunk's size: the figure people feel on a slow link is this one, not the bundle's total.
 */
export function firstLoadBudget(budgets: FirstLoad[]): Plugin {
  let root = '';
  return {
    name: 'fleetlink:first-load-budget',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      for (const budget of budgets) {
        const chunks = chunksOf(bundle as OutputBundle, root, budget.modules);
        const css = [...new Set(chunks.flatMap((c) => [...((c as { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? [])]))];
        const rows = [
          // A chunk of stylesheets alone has no code: the build drops it, and the page loads only its CSS.
          ...(await Promise.all(chunks.filter((c) => c.code.trim() !== '').map(async (c) => ({ file: c.fileName, kind: 'js', raw: c.code.length, sent: (await brotliBest(Buffer.from(c.code))).length })))),
          ...(await Promise.all(
            css.map(async (name) => {
              const source = Buffer.from((bundle[name] as { source: string | Uint8Array }).source);
              return { file: name, kind: 'css', raw: source.length, sent: (await brotliBest(source)).length };
            }),
          )),
        ].sort((a, b) => b.sent - a.sent);
        const total = (kind: string) => rows.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.sent, 0);
        const js = total('js');
        const cssBytes = total('css');
        const lines = rows.map((r) => `  ${r.file.padEnd(48)} ${kB(r.raw).padStart(10)} ${kB(r.sent).padStart(10)} br`);
        this.info(
          [
            `First load of ${budget.page}: ${kB(js)} of JavaScript (budget ${kB(budget.maxJsBytes)}) and ${kB(cssBytes)} of CSS (budget ${kB(budget.maxCssBytes)}), as sent:`,
            ...lines,
          ].join('\n'),
        );
        if (js > budget.maxJsBytes || cssBytes > budget.maxCssBytes) {
          this.error(
            `The first load of ${budget.page} is over its budget: ${kB(js)} of JavaScript (at most ${kB(budget.maxJsBytes)}) and ${kB(cssBytes)} of CSS (at most ${kB(budget.maxCssBytes)}), compressed.`,
          );
        }
      }
    },
  };
}
