import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Refused } from '../refused.js';
import { requestFor } from '../http-request.js';

/** Where the agent's blob URLs lead, and the device account that proves them its own. */
export interface BlobEndpoint {
  consoleUrl: string;
  username: string;
  password: string;
}

/** A transfer that hears nothing for this long has lost the console. */
const IDLE_MS = 60_000;

/**
 * node:http(s), not fetch: a stream of any size goes through with bounded buffers, and a running
 * agent carries no undici (see enroll.ts). Loaded when a transfer first needs it.
 */
async function send(endpoint: BlobEndpoint, relative: string, method: 'GET' | 'PUT', headers: Record<string, string | number>, signal: AbortSignal) {
  const url = new URL(relative, endpoint.consoleUrl);
  const request = requestFor(url);
  const authorization = `Basic ${Buffer.from(`${endpoint.username}:${endpoint.password}`).toString('base64')}`;
  const req = request(url, { method, headers: { ...headers, authorization }, signal, timeout: IDLE_MS });
  req.on('timeout', () => req.destroy(new Error(`The console sent nothing for ${IDLE_MS / 1000} s.`)));
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  return { req, response };
}

/** Fails with the console's own words when it refuses `what` it was asked (a blob URL, a terminal relay). */
export async function accepted(res: IncomingMessage, what = 'the transfer'): Promise<IncomingMessage> {
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return res;
  let text = '';
  for await (const chunk of res) if (text.length < 4096) text += String(chunk);
  let message = `HTTP ${status}`;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // Not the console's JSON (a proxy's page): the status says enough.
  }
  throw new Refused(`The console refused ${what}: ${message}`);
}

/** PUTs `size` bytes of `source` to a blob URL; resolves once the console has stored all of them. */
export async function putBlob(endpoint: BlobEndpoint, relative: string, source: Readable, size: number, signal: AbortSignal): Promise<void> {
  const { req, response } = await send(endpoint, relative, 'PUT', { 'content-type': 'application/octet-stream', 'content-length': size }, signal);
  // An early refusal ends the request while the file is still going: its answer is what counts.
  const body = pipeline(source, req).catch((err: Error) => err);
  const res = await response;
  await accepted(res);
  res.resume();
  const failed = await body;
  if (failed) throw failed;
}

/** GETs a blob URL (or another of the agents' own routes, `what` it is): the console's answer, a stream of its Content-Length. */
export async function getBlob(endpoint: BlobEndpoint, relative: string, signal: AbortSignal, what?: string): Promise<IncomingMessage> {
  const { req, response } = await send(endpoint, relative, 'GET', {}, signal);
  req.end();
  return accepted(await response, what);
}
