import { StringDecoder } from 'node:string_decoder';
import { terminalEventSchema, terminalPath, type TerminalEvent } from '@fleetlink/contract';
import WebSocket from 'ws';
import { whenUpgraded } from '../../testing/websocket.test-support.js';

/** A terminal page's socket as a test drives it: what the shell printed, the console's events, how it closed. */
const KEPT = 64 * 1024;

export interface TerminalClient {
  ws: WebSocket;
  /** The last of what the shell printed (up to KEPT characters), as text. */
  output(): string;
  /** How many characters the shell printed so far: a `from` for waitFor. */
  mark(): number;
  events: TerminalEvent[];
  /** Resolves once the output since `from` (a mark()) matches. */
  waitFor(match: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  type(text: string): void;
  resize(cols: number, rows: number): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/**
 * Opens a device's terminal as the page does: the console's own Origin unless told otherwise, then
 * the token and size as the first message. Resolves once the console said `ready`, or closed.
 */
export function openTerminal(
  consoleUrl: string,
  deviceId: string,
  token: string | null,
  o: { origin?: string | null; hello?: string; cols?: number; rows?: number } = {},
): Promise<TerminalClient> {
  const origin = o.origin === undefined ? new URL(consoleUrl).origin : o.origin;
  const ws = new WebSocket(consoleUrl.replace(/^http/, 'ws') + terminalPath(deviceId), origin ? { origin } : {});
  const decoder = new StringDecoder('utf8');
  // A flood (`yes`) is not kept whole: the test only ever looks at its end.
  let text = '';
  let dropped = 0;
  const events: TerminalEvent[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('message', (data, binary) => {
    if (binary) {
      text += decoder.write(data as Buffer);
      if (text.length > 2 * KEPT) {
        dropped += text.length - KEPT;
        text = text.slice(-KEPT);
      }
    } else events.push(terminalEventSchema.parse(JSON.parse(String(data))));
    waiters.forEach((w) => w());
  });
  const output = () => text;
  const mark = () => dropped + text.length;
  const client: TerminalClient = {
    ws,
    output,
    mark,
    events,
    closed,
    close: () => ws.close(),
    type: (t) => ws.send(Buffer.from(t), { binary: true }),
    resize: (cols, rows) => ws.send(JSON.stringify({ type: 'resize', cols, rows })),
    waitFor(match, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        // A flood of output is searched once: each look starts a little before where the last one ended.
        let scanned = from;
        const check = () => {
          const found = text.slice(Math.max(0, Math.max(from, scanned - 256) - dropped)).match(match);
          scanned = mark();
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found[0]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no output matching ${match} within ${timeoutMs} ms; got ${JSON.stringify(text.slice(-2000))} and ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  return whenUpgraded(ws, 'terminal socket', async () => {
    if (o.hello !== undefined) ws.send(o.hello);
    else if (token !== null) ws.send(JSON.stringify({ token, cols: o.cols ?? 80, rows: o.rows ?? 24 }));
    // Ready, or closed (refused): either way the caller looks at what came.
    const ready = new Promise<void>((r) => {
      const check = () => events.some((e) => e.type === 'ready') && r();
      waiters.add(check);
    });
    await Promise.race([ready, closed]);
    return client;
  });
}
