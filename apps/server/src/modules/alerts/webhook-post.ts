import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '@fleetlink/contract';
import { refusedAddress } from './webhook-target.js';

/** A receiver has this long to answer, headers and all. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: only its status counts. */
const ANSWER_MAX = 4096;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the time is signed too, so a receiver can refuse a replay. */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export interface WebhookAnswer {
  /** The receiver's status; undefined when it did not answer (then `error` says why). */
  status?: number;
  latencyMs: number;
  error?: string;
}

/** Resolves as dns.lookup does, and refuses a name whose addresses include one a webhook may not reach. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const refused = addresses.map((a) => refusedAddress(a.address, allowPrivate)).find(Boolean);
      if (refused) return callback(Object.assign(new Error(refused), { code: 'EREFUSEDTARGET' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * POSTs a signed JSON body; never throws. Redirects are not followed (a 3xx is a failed delivery:
 * following one would let a receiver send the console anywhere).
 */
export function postWebhook(url: string, body: string, secret: string, o: { allowPrivate: boolean; now?: Date; timeoutMs?: number }): Promise<WebhookAnswer> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const seconds = Math.floor((o.now ?? new Date()).getTime() / 1000);
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Omit<WebhookAnswer, 'latencyMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      req.destroy();
      resolve({ ...answer, latencyMs: latency() });
    };
    const req = transport.request(
      target,
      {
        method: 'POST',
        lookup: checkedLookup(o.allowPrivate),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Fleetlink-Webhook',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body, seconds),
        },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_MAX) finish({ status: res.statusCode });
        });
        res.on('end', () => finish({ status: res.statusCode }));
        res.on('error', () => finish({ status: res.statusCode }));
      },
    );
    // A literal IP skips the lookup: judged here the same way.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const refused = /^[\d.]+$|:/.test(literal) ? refusedAddress(literal, o.allowPrivate) : undefined;
    const deadline = setTimeout(() => finish({ error: `The receiver did not answer within ${(o.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s.` }), o.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code === 'EREFUSEDTARGET' ? err.message : `Could not reach the receiver: ${err.code ?? err.message}.` }));
    if (refused) return finish({ error: refused });
    req.end(body);
  });
}
