import { LIVE_PATH, LiveClose } from '@fleetlink/contract';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Member, Principal } from '../../auth/principal.js';
import { pingSockets, refuseUpgrade, type WebSocketUpgrades } from '../../lib/websocket-upgrades.js';
import type { LiveBus } from './live-bus.js';
import { LiveStream } from './live-stream.js';

/** Open live sockets one console keeps; past it a page falls back on its 60-second refresh. */
export const LIVE_STREAMS_MAX = 20_000;
/** A socket that answers no ping within this long is gone (a closed laptop, a dropped network). */
const PING_EVERY_MS = 30_000;

export interface LiveOptions {
  /** The same as the API's (plugins/auth.ts bearerAuthenticator): access tokens and personal API tokens. */
  authenticate(token: string, address: string): Promise<Principal>;
  organizationsOf(member: Member): Promise<string[]>;
  bus: LiveBus;
  /** The console's own origin (PUBLIC_URL's): the only page that may open the socket. */
  origin: string;
  /** Told when an account was disabled or deleted here or on another console (AccountStanding.onChange). */
  onAccountsChanged?: (listener: () => void) => void;
}

/**
 * GET /api/live upgraded to a WebSocket (issue 61). Fastify's routes do not see upgrades, so the
 * checks a route's hooks would make are made here: the page's Origin must be the console's own (a
 * browser always sends it on a WebSocket, so another site's page cannot open one with a stolen
 * token), the token comes as the first message (live-stream.ts), and each socket is pinged.
 */
export function registerLive(app: FastifyInstance, upgrades: WebSocketUpgrades, o: LiveOptions): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 });
  const pings = pingSockets(() => wss.clients, PING_EVERY_MS);
  const log = app.log.child({ module: 'live' });
  const streams = new Map<WebSocket, LiveStream>();

  upgrades.add((path) => path === LIVE_PATH, (req, socket, head) => {
    if (req.headers.origin !== o.origin) {
      log.info({ origin: req.headers.origin ?? null }, 'live socket refused: not opened by a page of this console');
      return refuseUpgrade(socket, 403, 'Live updates are only for pages of this console (the Origin header must be its own).');
    }
    if (wss.clients.size >= LIVE_STREAMS_MAX) return refuseUpgrade(socket, 503, 'Too many live connections are open; the page refreshes every minute instead.');
    wss.handleUpgrade(req, socket, head, (ws) => {
      pings.watch(ws);
      const address = req.socket.remoteAddress ?? '';
      streams.set(ws, new LiveStream(ws, { authenticate: o.authenticate, address, organizationsOf: o.organizationsOf, bus: o.bus, log }));
      ws.once('close', () => streams.delete(ws));
    });
  });
  // Each stream checks its token again (a disable or delete is rare): a disabled person's stream
  // closes at once, the others' standing is remembered.
  o.onAccountsChanged?.(() => {
    for (const stream of streams.values()) void stream.checkNow();
  });

  // Before the server stops listening: it waits for every open connection, upgraded sockets too.
  app.addHook('preClose', async () => {
    pings.stop();
    o.bus.close();
    for (const ws of wss.clients) ws.close(LiveClose.GoingAway, 'The console is stopping.');
    // Sockets that do not answer the close in a moment are cut.
    await new Promise<void>((resolve) => setTimeout(resolve, wss.clients.size ? 200 : 0));
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  });
}
