import type { Socket } from 'node:net';
import type { Connection } from 'ssh2';
import type { ProxyLog } from './log.js';

/** How long a connection has to finish its handshake and sign in. */
export const SSH_SIGN_IN_MS = 10_000;
/** Connections not signed in yet, from one address and in all: past them, new ones are closed at once. */
export const SSH_UNAUTHENTICATED_PER_ADDRESS = 64;
export const SSH_UNAUTHENTICATED_IN_ALL = 512;

/** The TCP connection under an SSH one (ssh2 keeps it, and names only end(), a polite disconnect the peer may ignore). */
export const socketOf = (client: Connection) => (client as Connection & { _sock?: Socket })._sock;

/**
 * Connections that have not signed in yet: cut past SSH_SIGN_IN_MS, and refused at once past the
 * caps of one address and of all, so that handshakes held open cannot hold the proxy's file
 * descriptors (built in, the console's).
 */
export class SignInDeadlines {
  private readonly waiting = new Map<Socket, () => void>();
  private readonly byAddress = new Map<string, number>();
  private warnedAt = 0;

  constructor(private readonly log: ProxyLog) {}

  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= SSH_UNAUTHENTICATED_PER_ADDRESS || this.waiting.size >= SSH_UNAUTHENTICATED_IN_ALL) {
      // Once in ten seconds at most: the refusals are the flood.
      if (Date.now() - this.warnedAt > 10_000) {
        this.warnedAt = Date.now();
        this.log.warn({ address, fromAddress: mine, inAll: this.waiting.size }, 'proxy: SSH connections refused: too many not signed in yet');
      }
      return void socket.destroy();
    }
    this.byAddress.set(address, mine + 1);
    const deadline = setTimeout(() => {
      this.log.warn({ address }, `proxy: SSH connection cut: not signed in within ${SSH_SIGN_IN_MS / 1000} seconds`);
      socket.destroy();
    }, SSH_SIGN_IN_MS);
    const done = () => {
      if (!this.waiting.delete(socket)) return;
      clearTimeout(deadline);
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    };
    this.waiting.set(socket, done);
    socket.once('close', done);
  }

  signedIn(socket: Socket | undefined): void {
    if (socket) this.waiting.get(socket)?.();
  }
}
