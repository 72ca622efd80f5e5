import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Compression of the console's answers made per request: the API's JSON and the built-in provider's
 * pages (the web console's built files are compressed once at build time and served as they are).
 * One rule for both, so the API (fastify) and the provider (its own Koa app) answer alike.
 */

/** Below this a compressed answer saves less than its headers and the time cost. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

const compressible = /^(text\/|application\/(json|javascript|xml|[a-z.+-]*\+json|[a-z.+-]*\+xml)|image\/svg\+xml)/i;

export function isCompressibleType(contentType: string | number | string[] | undefined): boolean {
  return typeof contentType === 'string' && compressible.test(contentType);
}

/** The encoding to answer with: brotli where the client takes it, else gzip, else none (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * Quick settings: an answer is compressed each time it is sent, so speed matters more than the last
 * percent. In the calling thread: the answers compressed here are JSON and pages (about 1 ms for
 * 100 kB), files and downloads are streams and are not.
 */
function compressBody(text: Buffer | string, encoding: ContentEncoding): Buffer {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level: 6 });
}

/** An answer as the server is about to send it. */
export interface OutgoingAnswer {
  method: string;
  status: number;
  contentType: string | number | string[] | undefined;
  contentEncoding: string | number | string[] | undefined;
  acceptEncoding: string | string[] | undefined;
  /**
   * The body when it is whole in memory; undefined for a stream, which is sent as it is. A string is
   * turned into bytes only when it is compressed: most API answers go out as they are, uncopied.
   */
  body: Buffer | string | undefined;
}

/**
 * What to do with an answer: undefined to send it as it is; otherwise it varies on Accept-Encoding,
 * and `compressed` with its `encoding` replace the body when the client takes one.
 */
export function compressAnswer(answer: OutgoingAnswer): { compressed?: Buffer; encoding?: ContentEncoding } | undefined {
  const { body } = answer;
  if (body === undefined || (typeof body === 'string' ? Buffer.byteLength(body) : body.length) < COMPRESS_MIN_BYTES || answer.method === 'HEAD' || answer.status === 204 || answer.status === 304) return undefined;
  if (answer.contentEncoding || !isCompressibleType(answer.contentType)) return undefined;
  const encoding = chooseEncoding(answer.acceptEncoding);
  return encoding ? { compressed: compressBody(body, encoding), encoding } : {};
}

/** Adds accept-encoding to a Vary header's list, once. */
export function varyOnEncoding(vary: string | number | string[] | undefined): string {
  const list = (Array.isArray(vary) ? vary.join(',') : vary === undefined ? '' : String(vary)).split(',').map((v) => v.trim()).filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === 'accept-encoding')) return list.join(', ');
  return [...list, 'Accept-Encoding'].join(', ');
}
