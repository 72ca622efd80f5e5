import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AGENT_TERMINAL_PREFIX, TERMINAL_AUTH_TIMEOUT_MS, TERMINAL_FRAME_MAX, TERMINAL_PATH_PREFIX, TerminalClose } from '@fleetlink/contract';
import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import type { SecretBox } from '../../lib/secret-box.js';
import { pingSockets, refuseUpgrade, type WebSocketUpgrades } from '../../lib/websocket-upgrades.js';
import type { DeviceCredentials } from '../enrollment/credentials.js';
import { joinSockets } from './socket-flow.js';
import type { TerminalService } from './terminal.service.js';

/** Where a console hands a relay that reached it to the console holding the session's page. */
export const TERMINAL_PEER_PREFIX = '/api/terminal-peer/';
/** The header that proves the handing console shares the consoles' SECRET_KEY. */
const PEER_HEADER = 'x-fleetlink-peer';
const PEER_CONTEXT = 'terminal relay handover';
/** Page sockets one console keeps open at most (each device has its own cap besides). */
export const TERMINAL_PAGES_MAX = 1000;
const PING_EVERY_MS = 30_000;
const PEER_CONNECT_MS = 10_000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const idAfter = (prefix: string) => new RegExp(`^${prefix.replace(/\//g, '\\/')}(${UUID})$`, 'i');
const PAGE_PATH = idAfter(TERMINAL_PATH_PREFIX);
const RELAY_PATH = idAfter(AGENT_TERMINAL_PREFIX);
const PEER_PATH = idAfter(TERMINAL_PEER_PREFIX);

export interface TerminalRouteOptions {
  service: TerminalService;
  credentials: Pick<DeviceCredentials, 'verify'>;
  box: SecretBox;
  /** The console's own origin (PUBLIC_URL's): the only page that may open a terminal. */
  origin: string;
}

/**
 * The terminal's three WebSockets (issue 63), checked before they are upgraded:
 * - the page's, `/api/terminal/{deviceId}`: its Origin must be the console's own (another site's
 *   page cannot open it with the person's token: cross-site WebSocket hijacking), then the token
 *   comes as the first message, within TERMINAL_AUTH_TIMEOUT_MS;
 * - the agent's relay, `/api/agent/terminal/{sessionId}?token=`: the device's own account and the
 *   session's single-use token, claimed in the database, so it works once, for that device only;
 * - another console's handover of a relay, `/api/terminal-peer/{sessionId}`, tagged with the key
 *   all consoles share, for a session this console is still waiting on.
 */
export function registerTerminal(app: FastifyInstance, upgrades: WebSocketUpgrades, o: TerminalRouteOptions): void {
  const log = app.log.child({ module: 'terminal' });
  const pages = new WebSocketServer({ noServer: true, maxPayload: TERMINAL_FRAME_MAX });
  const relays = new WebSocketServer({ noServer: true, maxPayload: TERMINAL_FRAME_MAX });
  // The handed-over relays this console opened to another are cut with the agent's side they join.
  const pings = pingSockets(() => [...pages.clients, ...relays.clients], PING_EVERY_MS);
  const watch = (ws: WebSocket) => pings.watch(ws);

  upgrades.add((path) => path.startsWith(TERMINAL_PATH_PREFIX), (req, socket, head, path) => {
    const deviceId = path.match(PAGE_PATH)?.[1];
    if (!deviceId) return refuseUpgrade(socket, 404, 'Device not found.');
    if (req.headers.origin !== o.origin) {
      log.info({ origin: req.headers.origin ?? null }, 'terminal socket refused: not opened by a page of this console');
      return refuseUpgrade(socket, 403, 'The terminal is only for pages of this console (the Origin header must be its own).');
    }
    if (pages.clients.size >= TERMINAL_PAGES_MAX) return refuseUpgrade(socket, 503, 'Too many terminals are open on this console: try again later.');
    pages.handleUpgrade(req, socket, head, (page) => {
      watch(page);
      const timer = setTimeout(() => page.close(TerminalClose.Unauthorized, 'No access token was sent.'), TERMINAL_AUTH_TIMEOUT_MS);
      page.once('message', (data) => {
        clearTimeout(timer);
        void o.service.start(page, deviceId.toLowerCase(), String(data), req.socket.remoteAddress ?? '');
      });
      page.on('error', () => page.terminate());
    });
  });

  upgrades.add((path) => path.startsWith(AGENT_TERMINAL_PREFIX), (req, socket, head, path) => void relay(req, socket, head, path));

  async function relay(req: IncomingMessage, socket: Duplex, head: Buffer, path: string) {
    const sessionId = path.match(RELAY_PATH)?.[1]?.toLowerCase();
    const token = new URL(req.url ?? '', 'http://console').searchParams.get('token');
    if (!sessionId || !token) return refuseUpgrade(socket, 404, 'There is no such terminal session.');
    const auth = basicCredentials(req.headers.authorization);
    try {
      const deviceId = auth && (await o.credentials.verify(auth.username, auth.password));
      if (!deviceId) return refuseUpgrade(socket, 401, 'The device credentials are missing or not valid.');
      const claimed = await o.service.claimRelay(sessionId, deviceId, token);
      if (!claimed) {
        log.info({ sessionId, deviceId }, 'terminal relay refused: token used, expired or of another device');
        return refuseUpgrade(socket, 403, 'This terminal URL is not valid: it was used already, it expired, or it belongs to another device.');
      }
      if (o.service.waiting(sessionId)) {
        return relays.handleUpgrade(req, socket, head, (ws) => {
          watch(ws);
          if (!o.service.attach(sessionId, ws)) ws.close(1000, 'The session ended.');
        });
      }
      // The page is on another console: it takes the relay from this one, which passes frames on.
      const peer = await connectPeer(claimed.peerUrl, sessionId);
      if (!peer) return refuseUpgrade(socket, 502, 'The console holding this terminal could not be reached.');
      relays.handleUpgrade(req, socket, head, (ws) => {
        watch(ws);
        joinSockets(ws, peer);
      });
    } catch (err) {
      log.warn({ err: (err as Error).message, sessionId }, 'terminal relay refused: could not be checked');
      refuseUpgrade(socket, 503, 'The console could not check this terminal right now.');
    }
  }

  function connectPeer(peerUrl: string, sessionId: string): Promise<WebSocket | undefined> {
    const url = `${peerUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}${TERMINAL_PEER_PREFIX}${sessionId}`;
    const peer = new WebSocket(url, { headers: { [PEER_HEADER]: o.box.tag(sessionId, PEER_CONTEXT) }, handshakeTimeout: PEER_CONNECT_MS, maxPayload: TERMINAL_FRAME_MAX });
    return new Promise((resolve) => {
      peer.once('open', () => resolve(peer));
      peer.once('error', (err) => {
        log.warn({ err: err.message, sessionId, peerUrl }, 'terminal relay: the console holding the page could not be reached (CONSOLE_PEER_URL)');
        resolve(undefined);
      });
    });
  }

  upgrades.add((path) => path.startsWith(TERMINAL_PEER_PREFIX), (req, socket, head, path) => {
    const sessionId = path.match(PEER_PATH)?.[1]?.toLowerCase();
    const tag = req.headers[PEER_HEADER];
    if (!sessionId || typeof tag !== 'string' || !o.box.verifyTag(tag, sessionId, PEER_CONTEXT)) {
      return refuseUpgrade(socket, 403, 'Only another console of this installation may hand over a terminal.');
    }
    if (!o.service.waiting(sessionId)) return refuseUpgrade(socket, 404, 'There is no such terminal session waiting here.');
    relays.handleUpgrade(req, socket, head, (ws) => {
      watch(ws);
      if (!o.service.attach(sessionId, ws)) ws.close(1000, 'The session ended.');
    });
  });

  app.addHook('preClose', async () => {
    pings.stop();
    o.service.close();
    await new Promise<void>((resolve) => setTimeout(resolve, pages.clients.size + relays.clients.size ? 200 : 0));
    for (const ws of [...pages.clients, ...relays.clients]) ws.terminate();
    pages.close();
    relays.close();
  });
}
