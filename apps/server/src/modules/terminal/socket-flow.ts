import { WebSocket, type RawData } from 'ws';

/** Bytes a socket may have waiting to be sent before the one feeding it stops being read. */
export const FLOW_HIGH = 1024 * 1024;
/** ...and resumes once it is down to this. */
export const FLOW_LOW = 256 * 1024;

/**
 * Sends what `from` gave to `to`; while `to` has more than FLOW_HIGH unsent, `from` is not read,
 * so TCP makes its sender wait in turn (a `yes` on the device waits for the slowest reader instead
 * of filling the console's memory). `held()` keeps `from` paused for another reason (the page asked).
 */
export function sendOn(to: WebSocket, from: WebSocket, data: RawData, binary: boolean, held: () => boolean = () => false): void {
  if (to.readyState !== WebSocket.OPEN) return;
  to.send(data as Buffer, { binary }, () => {
    if (from.isPaused && !held() && to.bufferedAmount < FLOW_LOW) from.resume();
  });
  if (to.bufferedAmount > FLOW_HIGH) from.pause();
}

/**
 * Joins two sockets as they are (a relay that reached another console, passed on to the console of
 * the page): every frame goes across unchanged, each way with the backpressure above; when one
 * closes, so does the other.
 */
export function joinSockets(a: WebSocket, b: WebSocket): void {
  a.on('message', (data, binary) => sendOn(b, a, data, binary));
  b.on('message', (data, binary) => sendOn(a, b, data, binary));
  const closeOther = (other: WebSocket) => (code: number, reason: Buffer) => {
    if (other.readyState === WebSocket.OPEN || other.readyState === WebSocket.CONNECTING) other.close(closable(code), reason.subarray(0, 123));
  };
  a.on('close', closeOther(b));
  b.on('close', closeOther(a));
  a.on('error', () => a.terminate());
  b.on('error', () => b.terminate());
}

/** Codes a socket may send: 1005/1006 only tell that none came. */
const closable = (code: number) => (code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999) ? code : 1000);
