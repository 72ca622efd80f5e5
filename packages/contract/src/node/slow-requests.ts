import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How slowly a client may send a request before it is cut: its headers within `headersMs`, and a
 * body at least `minBytes` every `windowMs` (a real upload, even on a poor mobile link, sends far
 * more; a client trickling a byte every few seconds holds a connection and a request open for nothing).
 */
export const SLOW_REQUEST_LIMITS = { headersMs: 15_000, windowMs: 10_000, minBytes: 1024, checkEveryMs: 1000 };
export type SlowRequestLimits = typeof SLOW_REQUEST_LIMITS;

export const SLOW_BODY_MESSAGE = 'The request body came too slowly: the connection was closed. Send it again over a better connection.';

/** Options for `http.createServer`: Node then checks the headers' deadline every second, not every 30. */
export const slowHeaderOptions = (limits: SlowRequestLimits = SLOW_REQUEST_LIMITS) => ({ headersTimeout: limits.headersMs, connectionsCheckingInterval: limits.checkEveryMs });

/**
 * Cuts requests whose body arrives slower than the limits (their headers' deadline is the server's
 * own: create it with `slowHeaderOptions`), answering 408 (`answer` writes it, in the
 * server's own format) and closing the connection. Time spent waiting on the server itself (a body
 * it has paused, or not read yet) does not count against the client. The socket's byte count is
 * watched, never the body: a listener on it would start the body flowing before its reader is there.
 */
export function cutSlowRequests(server: Server, answer: (res: ServerResponse) => void, limits: SlowRequestLimits = SLOW_REQUEST_LIMITS): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req)) return;
    const socket = req.socket;
    let mark = socket.bytesRead;
    let since = Date.now();
    const timer = setInterval(() => {
      if (req.complete || req.destroyed) return stop();
      const waitingOnServer = req.readableLength > 0 || req.isPaused() || socket.isPaused();
      if (waitingOnServer || socket.bytesRead - mark >= limits.minBytes) {
        mark = socket.bytesRead;
        since = Date.now();
        return;
      }
      if (Date.now() - since < limits.windowMs) return;
      stop();
      if (!res.headersSent) {
        res.setHeader('connection', 'close');
        answer(res);
      }
      // What the client sends after the answer is not read: the connection goes once it is out, and
      // the body fails for whoever reads it, so a half-written file is removed at once.
      const cut = () => {
        // Whoever reads the body hears the error; where nobody does, it must not end the process.
        req.on('error', () => {});
        req.destroy(new Error(SLOW_BODY_MESSAGE));
        socket.destroy();
      };
      if (res.writableFinished) cut();
      else res.once('finish', cut).once('close', cut);
    }, limits.checkEveryMs);
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    req.once('close', stop);
  });
}

/** Whether a request has a body (a length other than 0, or a chunked one). */
export const hasBody = (req: IncomingMessage) => (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;
