import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { alertWebhookBodySchema, WEBHOOK_SIGNATURE_HEADER, type AlertWebhookBody } from '@fleetlink/contract';

/** One POST a receiver got: its parsed body, its signature header and raw text, and when. */
export interface ReceivedWebhook {
  body: AlertWebhookBody;
  raw: string;
  signature: string;
  at: number;
}

/** Checks a signature as a receiver should: HMAC-SHA256 of "<t>.<body>", compared in constant time, and `t` no older than `maxAgeSeconds`. */
export function verifySignature(header: string, raw: string, secret: string, maxAgeSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > maxAgeSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${raw}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A webhook receiver on loopback, as a customer would run one: it keeps what it got and answers the
 * statuses it is given in turn (200 once they run out).
 */
export async function startWebhookReceiver(): Promise<{
  url: string;
  got: ReceivedWebhook[];
  /** The statuses of the next answers, in order. */
  answer(...statuses: number[]): void;
  /** Forgets what it got and the answers it was given. */
  reset(): void;
  waitFor(count: number, ms?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}> {
  const got: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      got.push({ body: alertWebhookBodySchema.parse(JSON.parse(raw)), raw, signature: String(req.headers[WEBHOOK_SIGNATURE_HEADER] ?? ''), at: Date.now() });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/fleetlink`,
    got,
    answer: (...s) => statuses.push(...s),
    reset: () => {
      got.length = 0;
      statuses.length = 0;
    },
    async waitFor(count, ms = 15_000) {
      const until = Date.now() + ms;
      while (got.length < count) {
        if (Date.now() > until) throw new Error(`the receiver got ${got.length} of ${count} webhooks in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return got;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
