import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_MODULE, SESSION_HINT_COOKIE } from '@fleetlink/contract/web-paths';

/** A chunk of the web build's manifest (Vite's `build.manifest`), the part read here. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The console's own files, from the web build's manifest: the console module, the chunks it imports
 * (transitively) and their stylesheets, but for what index.html loads itself (the bootstrap); empty
 * when the build wrote no manifest (a development server) or lists no console.
 */
export function consoleFilesOf(spa: string): string[] {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(path.join(spa, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return [];
  }
  const closure = (key: string, files = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return files;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) closure(imported, files);
    return files;
  };
  const page = closure('index.html');
  return [...closure(CONSOLE_MODULE)].filter((file) => !page.has(file));
}

/**
 * A `Link` header's entries preloading `files` (build paths, as `assets/…`), each as the console asks
 * for it: scripts as modules, stylesheets as the build's loader adds them (with `crossorigin`), so
 * that the preloaded answer is the one used.
 */
export function preloadLinksOf(files: string[]): string[] {
  return files.map((file) => (file.endsWith('.css') ? `</${file}>; rel=preload; as=style; crossorigin` : `</${file}>; rel=modulepreload`));
}

/** Whether the request carries the web console's session hint: someone was signed in with this browser. */
export function hasSessionHint(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim() === `${SESSION_HINT_COOKIE}=1`);
}
