import { LIVE_PATH, LiveClose, type LiveMessage } from '@fleetlink/contract';

/** Waits before opening again after a drop: a console that restarts is not asked every second. */
export const LIVE_RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

export interface LiveConnectionOptions {
  /** The console's origin, as the page has it (http → ws). */
  origin: string;
  onMessage(message: LiveMessage): void;
  /** The socket opened again after a drop: what happened meanwhile was not heard, so the page reads again. */
  onReopened(): void;
  /** Tests give their own; the browser's otherwise. */
  WebSocket?: typeof WebSocket;
  random?: () => number;
}

/**
 * The page's one live socket (issue 61). It sends the access token as its first message and passes
 * on what the console says. It opens again by itself, with backoff and jitter, when the socket drops
 * or the console refuses it (a token that expired opens with the renewed one, if any); a renewed
 * token opens a new socket first and closes the old one once the new one is ready, so nothing falls
 * between them. It never says anything to the person: the pages' 60-second refresh carries on
 * whatever happens here.
 */
export class LiveConnection {
  private socket?: WebSocket;
  private token?: string;
  private failures = 0;
  private retry?: ReturnType<typeof setTimeout>;
  private everReady = false;
  private stopped = false;

  constructor(private readonly o: LiveConnectionOptions) {}

  /** The current access token: the first one opens the socket, a new one replaces it. */
  setToken(token: string | undefined): void {
    if (token === this.token || this.stopped) return;
    this.token = token;
    if (!token) return this.drop();
    clearTimeout(this.retry);
    this.open(token);
  }

  stop(): void {
    this.stopped = true;
    this.drop();
  }

  private drop() {
    clearTimeout(this.retry);
    const s = this.socket;
    this.socket = undefined;
    s?.close(1000);
  }

  private open(token: string) {
    const Ws = this.o.WebSocket ?? WebSocket;
    const socket = new Ws(this.o.origin.replace(/^http/, 'ws') + LIVE_PATH);
    let ready = false;
    socket.onopen = () => socket.send(JSON.stringify({ token }));
    socket.onmessage = (event) => {
      // The console's own messages, as its contract types them (it does not send another shape, and
      // the page does not load zod to check it). A type of a newer console this page does not know
      // is passed over where messages are applied: the refresh covers it.
      let message: LiveMessage;
      try {
        message = JSON.parse(String(event.data)) as LiveMessage;
      } catch {
        return;
      }
      if (typeof message?.type !== 'string') return;
      if (message.type === 'ready') {
        ready = true;
        const previous = this.socket;
        this.socket = socket;
        if (previous && previous !== socket) previous.close(1000);
        // A first socket, or one replacing a live one, missed nothing; one after a drop did.
        if (this.everReady && this.failures > 0) this.o.onReopened();
        this.everReady = true;
        this.failures = 0;
        return;
      }
      if (socket === this.socket) this.o.onMessage(message);
    };
    socket.onclose = (event) => {
      // The socket a renewed token replaced, or one this page closed itself: nothing to do.
      if (this.stopped || (ready && socket !== this.socket) || (!ready && token !== this.token)) return;
      if (socket === this.socket) this.socket = undefined;
      this.failures++;
      if (event.code === LiveClose.Unauthorized && token === this.token) {
        // The token expired (or the console does not take it): the renewed one, when it comes, opens.
        this.token = undefined;
        return;
      }
      this.again();
    };
    if (!this.socket) this.socket = socket;
  }

  private again() {
    clearTimeout(this.retry);
    const base = LIVE_RETRY_MS[Math.min(this.failures - 1, LIVE_RETRY_MS.length - 1)]!;
    const wait = base * (0.8 + 0.4 * (this.o.random ?? Math.random)());
    this.retry = setTimeout(() => {
      if (this.token && !this.stopped) this.open(this.token);
    }, wait);
  }
}
