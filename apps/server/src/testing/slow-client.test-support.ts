import { connect } from 'node:net';

/**
 * A client that sends `start` at once, then one byte of `trickle` every `everyMs`, as a slow-loris
 * does; answers what came back and how long after the start the connection was closed (by the server).
 */
export function slowClient(port: number, start: string, trickle: string, everyMs: number, giveUpMs = 40_000): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const began = Date.now();
    let answer = '';
    let sent = 0;
    const socket = connect(port, '127.0.0.1', () => socket.write(start));
    const timer = setInterval(() => {
      if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!);
    }, everyMs);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, closedAfterMs: Date.now() - began });
    };
    const giveUp = setTimeout(() => (socket.destroy(), done()), giveUpMs);
    socket.on('data', (d) => (answer += d));
    socket.on('close', done);
    socket.on('error', () => {});
  });
}
