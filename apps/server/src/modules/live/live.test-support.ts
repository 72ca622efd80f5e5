import { LIVE_PATH, liveMessageSchema, type LiveDeviceChange, type LiveMessage } from '@fleetlink/contract';
import WebSocket from 'ws';
import { whenUpgraded } from '../../testing/websocket.test-support.js';

/** A live socket as a page holds it: every message it got, and how it ended. */
export interface LiveClient {
  messages: LiveMessage[];
  /** Device changes received so far, flattened. */
  changes(): LiveDeviceChange[];
  /**
   * Resolves with the first matching message received since message number `from` (default: any,
   * received already or to come). A test that acts and then waits takes `messages.length` before it
   * acts: the answer may arrive before the action's own call returns.
   */
  next(match: (m: LiveMessage) => boolean, timeoutMs?: number, from?: number): Promise<LiveMessage>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/**
 * Opens the console's live socket as the SPA does: the console's own Origin unless told otherwise,
 * then the token as the first message; resolves once the console said `ready` (or closed).
 */
export function openLive(consoleUrl: string, token: string | null, o: { origin?: string | null; hello?: string } = {}): Promise<LiveClient> {
  const url = consoleUrl.replace(/^http/, 'ws') + LIVE_PATH;
  const origin = o.origin === undefined ? new URL(consoleUrl).origin : o.origin;
  const ws = new WebSocket(url, origin ? { origin } : {});
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('message', (data) => {
    messages.push(liveMessageSchema.parse(JSON.parse(String(data))));
    waiters.forEach((w) => w());
  });
  const client: LiveClient = {
    messages,
    changes: () => messages.flatMap((m) => (m.type === 'devices' ? m.changes : [])),
    closed,
    close: () => ws.close(),
    next(match, timeoutMs = 5000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching live message within ${timeoutMs} ms; got ${JSON.stringify(messages.slice(from))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  return whenUpgraded(ws, 'live socket', async () => {
    if (o.hello !== undefined) ws.send(o.hello);
    else if (token !== null) ws.send(JSON.stringify({ token }));
    // Ready, or closed (a refused token): either way the caller looks at what came.
    await Promise.race([client.next((m) => m.type === 'ready', 10_000, 0).catch(() => undefined), closed]);
    return client;
  });
}

/** True when the device's changes include this online state. */
export const sawOnline = (online: boolean, deviceId: string) => (m: LiveMessage) =>
  m.type === 'devices' && m.changes.some((c) => c.id === deviceId && c.online === online);
