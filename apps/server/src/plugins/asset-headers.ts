import { WORKER_ASSET_PREFIX } from '@fleetlink/contract/web-paths';
import { builtFileOf, cacheControlFor } from './static-caching.js';

/**
 * Security headers that only a document reads (or, for the policy, a document or a worker): sent with
 * a script or a stylesheet, they do nothing but cost their bytes on every asset, about 700 of each
 * file's 1,080 bytes of headers over HTTP/1.1 (issue 68 counts a first load's bytes as transferred).
 * Scripts and stylesheets keep what applies to them: `X-Content-Type-Options: nosniff`,
 * `Cross-Origin-Resource-Policy` and `Referrer-Policy` (a module's imports and a stylesheet's fonts
 * and images are fetched under its own).
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** What a browser would revalidate or resume a file with: an immutable file is never revalidated, and a script or stylesheet never fetched in ranges. */
const VALIDATORS = ['etag', 'last-modified', 'accept-ranges'];

/**
 * The headers to leave off a built file of the web console: none for a page, the document-only ones
 * for a script or a stylesheet (a worker's script keeps the policy it runs under), and the validators
 * for an immutable one.
 */
export function headersToDropFor(path: string): string[] {
  const file = `/${builtFileOf(path)}`;
  if (!/\.(js|css)$/.test(file)) return [];
  const worker = file.includes(`/${WORKER_ASSET_PREFIX}`) && file.endsWith('.js');
  const security = worker ? DOCUMENT_ONLY_HEADERS.filter((h) => h !== 'content-security-policy') : DOCUMENT_ONLY_HEADERS;
  return cacheControlFor(path).includes('immutable') ? [...security, ...VALIDATORS] : security;
}
