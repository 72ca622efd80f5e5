import type WebSocket from 'ws';

/**
 * Waits for a test's socket to open and then for `afterOpen`; a console that answered the upgrade
 * with an HTTP error instead rejects with its `status` and `body`, as a page would see them.
 */
export function whenUpgraded<T>(ws: WebSocket, what: string, afterOpen: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`${what} refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
    ws.once('open', () => void afterOpen().then(resolve, reject));
  });
}
