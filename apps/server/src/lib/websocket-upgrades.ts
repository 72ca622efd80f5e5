import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '@fleetlink/contract';
import type { WebSocket } from 'ws';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, path: string) => void;

/**
 * The console's one `upgrade` listener (Fastify's routes do not see upgrades): each WebSocket (the
 * live stream, the terminal's page and relay sockets) claims its paths here, and any other path is
 * answered 404 instead of being left hanging.
 */
export class WebSocketUpgrades {
  private readonly routes: { matches: (path: string) => boolean; handle: UpgradeHandler }[] = [];

  constructor(server: Server) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // A socket that errors before it is handed on (a client gone mid-handshake) must not crash the console.
      socket.on('error', () => socket.destroy());
      const path = (req.url ?? '').split('?')[0]!;
      const route = this.routes.find((r) => r.matches(path));
      if (!route) return refuseUpgrade(socket, 404, `There is no WebSocket at ${path}.`);
      route.handle(req, socket, head, path);
    });
  }

  add(matches: (path: string) => boolean, handle: UpgradeHandler): void {
    this.routes.push({ matches, handle });
  }
}

const REASONS: Record<number, [string, ErrorCode]> = {
  400: ['Bad Request', ErrorCode.BadRequest],
  401: ['Unauthorized', ErrorCode.Unauthenticated],
  403: ['Forbidden', ErrorCode.Forbidden],
  404: ['Not Found', ErrorCode.NotFound],
  409: ['Conflict', ErrorCode.Conflict],
  502: ['Bad Gateway', ErrorCode.Unavailable],
  503: ['Service Unavailable', ErrorCode.Unavailable],
};

/** An HTTP answer, as the API's errors are, on a socket that asked to be upgraded; then closed. */
export function refuseUpgrade(socket: Duplex, status: keyof typeof REASONS, message: string): void {
  const [reason, code] = REASONS[status]!;
  const body = JSON.stringify({ code, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Pings every socket `sockets()` gives each `everyMs`; one that did not answer the previous ping is
 * gone (a closed laptop, a dropped network) and is cut. `watch` each socket as it opens.
 */
export function pingSockets(sockets: () => Iterable<WebSocket>, everyMs: number): { watch(ws: WebSocket): void; stop(): void } {
  const alive = new WeakSet<WebSocket>();
  const timer = setInterval(() => {
    for (const ws of sockets()) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, everyMs).unref();
  return {
    watch(ws) {
      alive.add(ws);
      ws.on('pong', () => alive.add(ws));
    },
    stop: () => clearInterval(timer),
  };
}
