import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_MODULE, LANDING_PAGES, SESSION_HINT_COOKIE, landingPageAt } from '@fleetlink/contract/web-paths';

/** A chunk of the web build's manifest (Vite's `build.manifest`), the part read here. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** What index.html's Link header names, by the web build's manifest (build paths, as `assets/…`). */
export interface PreloadPlan {
  /** index.html's own scripts: the bootstrap. */
  page: string[];
  /** The console module, the chunks it imports and their stylesheets, but for the page's own. */
  console: string[];
  /** The pages people open first (LANDING_PAGES): what each needs beyond the page and the console. */
  landings: { path: string; files: string[] }[];
}

const NO_PLAN: PreloadPlan = { page: [], console: [], landings: [] };

/** The plan of the build in `spa`; an empty one when it wrote no manifest (a development server). */
export function preloadPlanOf(spa: string): PreloadPlan {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(path.join(spa, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return NO_PLAN;
  }
  // A module's file, its stylesheets and, transitively, those of the chunks it imports.
  const closure = (key: string, files = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return files;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) closure(imported, files);
    return files;
  };
  // index.html's scripts, as it names them: the build may have made its entry the bootstrap's own
  // chunk, which the manifest then lists by the chunk's name rather than under index.html.
  const page = new Set<string>();
  for (const file of pageScriptsOf(spa)) {
    const key = Object.keys(manifest).find((k) => manifest[k]!.file === file);
    if (key) closure(key, page);
  }
  const consoleFiles = [...closure(CONSOLE_MODULE)].filter((file) => !page.has(file));
  if (consoleFiles.length === 0) return { ...NO_PLAN, page: [...page] };
  const before = new Set([...page, ...consoleFiles]);
  return {
    page: [...page],
    console: consoleFiles,
    landings: LANDING_PAGES.map(({ path: pattern, module }) => ({ path: pattern, files: [...closure(module)].filter((file) => !before.has(file)) })),
  };
}

/** The module scripts index.html loads, as build paths (`assets/…`). */
function pageScriptsOf(spa: string): string[] {
  let html: string;
  try {
    html = readFileSync(path.join(spa, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="\/([^"]+)"/g)].map((match) => match[1]!);
}

/**
 * index.html's Link header entries for a request of `pathname`: the bootstrap's scripts first (they
 * decide everything else), then `first` (the sign-in's first question); to a browser someone was
 * signed in with, the console's code and the page's, which the bootstrap would ask for only once it
 * has run. A signed-out visitor is sent to sign in having downloaded nothing of the console.
 */
export function preloadLinksFor(plan: PreloadPlan, pathname: string, signedInBefore: boolean, first: string[]): string[] {
  const landing = signedInBefore ? landingPageAt(pathname)?.page : undefined;
  const landingFiles = plan.landings.find((l) => l.path === landing?.path)?.files ?? [];
  return [...linksOf(plan.page), ...first, ...(signedInBefore ? linksOf([...plan.console, ...landingFiles]) : [])];
}

/**
 * Preload links for build files, each as the console asks for it: scripts as modules, stylesheets as
 * the build's loader adds them (with `crossorigin`), so that the preloaded answer is the one used.
 */
function linksOf(files: string[]): string[] {
  return files.map((file) => (file.endsWith('.css') ? `</${file}>; rel=preload; as=style; crossorigin` : `</${file}>; rel=modulepreload`));
}

/** Whether the request carries the web console's session hint: someone was signed in with this browser. */
export function hasSessionHint(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim() === `${SESSION_HINT_COOKIE}=1`);
}
