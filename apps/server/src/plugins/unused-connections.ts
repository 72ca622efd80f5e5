import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A client's connection pool may open a connection ahead of need (undici's fetch does) and send
 * nothing on it. Node does not count such a connection as idle, so close() waits for it until the
 * client gives up, which can be never: it is dropped on close, as it carries no request to finish.
 */
export function dropUnusedConnectionsOnClose(app: FastifyInstance) {
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // The console listens on plain HTTP (TLS ends at the operator's proxy): the request's socket is the connection.
  app.addHook('onRequest', async (req) => void unused.delete(req.raw.socket));
  app.server.on('upgrade', (req: { socket: Socket }) => unused.delete(req.socket));
  app.addHook('preClose', async () => {
    for (const socket of unused) socket.destroy();
  });
}
