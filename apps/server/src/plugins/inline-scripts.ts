import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/**
 * The CSP sources (`'sha256-…'`) of a page's inline scripts: the console's CSP allows those scripts
 * by their hash, and no other inline script. The silent check page has one (it posts the provider's
 * answer to the console without loading a script file); its hash is read from the built page, so a
 * change to it cannot leave a stale hash behind.
 */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\ssrc\s*=/i.test(attributes ?? ''))
    .map(([, , body]) => `'sha256-${createHash('sha256').update(body ?? '').digest('base64')}'`);
}

/** The inline scripts' sources of a built page, or none when the page is not there (an API-only console). */
export function inlineScriptSourcesOf(file: string | undefined): string[] {
  return file && existsSync(file) ? inlineScriptSources(readFileSync(file, 'utf8')) : [];
}
