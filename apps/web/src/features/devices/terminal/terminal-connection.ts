import { terminalEventSchema, terminalPath, type TerminalControl, type TerminalSize } from '@fleetlink/contract';

/** Output the page's terminal has not drawn yet past which the console is asked to stop sending (xterm.js's flow control guide). */
export const DRAW_HIGH = 512 * 1024;
/** ...and below which it is asked to go on. */
export const DRAW_LOW = 128 * 1024;

export type TerminalState = { phase: 'connecting' } | { phase: 'ready' } | { phase: 'ended'; message: string };

/** The page's terminal as the connection sees it: xterm.js's write with its drawn-callback. */
export interface TerminalScreen {
  write(data: Uint8Array, drawn: () => void): void;
}

export interface TerminalConnectionOptions {
  origin: string;
  deviceId: string;
  token: string;
  size: TerminalSize;
  screen: TerminalScreen;
  onState(state: TerminalState): void;
  WebSocket?: typeof WebSocket;
}

const LOST = 'The connection to the console was lost.';

/**
 * One terminal session from the page (issue 63): the socket to the console, the token and size as
 * its first message, keys and pastes out as bytes, output into the screen. Output the screen has
 * not drawn yet is counted; past DRAW_HIGH the console is asked to pause (it stops reading from the
 * device, so a `yes` waits at the device) and below DRAW_LOW to resume: the page stays responsive.
 */
export class TerminalConnection {
  private readonly socket: WebSocket;
  private undrawn = 0;
  private paused = false;
  private ended = false;
  private readonly encoder = new TextEncoder();
  private size: TerminalSize;

  constructor(private readonly o: TerminalConnectionOptions) {
    this.size = o.size;
    const Ws = o.WebSocket ?? WebSocket;
    this.socket = new Ws(o.origin.replace(/^http/, 'ws') + terminalPath(o.deviceId));
    this.socket.binaryType = 'arraybuffer';
    this.socket.onopen = () => this.socket.send(JSON.stringify({ token: o.token, ...this.size }));
    this.socket.onmessage = (event) => this.received(event.data as ArrayBuffer | string);
    this.socket.onclose = (event) => this.end(event.reason || LOST);
  }

  /** Keys and pastes as the terminal gives them (text), or its binary reports (mouse, in xterm.js's byte string). */
  input(data: string, binary = false): void {
    if (this.socket.readyState !== 1) return;
    this.socket.send(binary ? Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff) : this.encoder.encode(data));
  }

  resize(size: TerminalSize): void {
    this.size = size;
    this.control({ type: 'resize', ...size });
  }

  /** The page leaves (the tab closes, another page opens): the console ends the session. */
  close(): void {
    this.ended = true;
    this.socket.close(1000);
  }

  private received(data: ArrayBuffer | string) {
    if (typeof data !== 'string') {
      const bytes = new Uint8Array(data);
      this.undrawn += bytes.length;
      if (!this.paused && this.undrawn > DRAW_HIGH) {
        this.paused = true;
        this.control({ type: 'pause' });
      }
      this.o.screen.write(bytes, () => {
        this.undrawn -= bytes.length;
        if (this.paused && this.undrawn < DRAW_LOW) {
          this.paused = false;
          this.control({ type: 'resume' });
        }
      });
      return;
    }
    let event;
    try {
      event = terminalEventSchema.parse(JSON.parse(data));
    } catch {
      return; // Something a newer console says that this page does not know.
    }
    if (event.type === 'ready') {
      // The window may have changed while the shell was starting: the console heard nothing of it then.
      if (this.size.cols !== this.o.size.cols || this.size.rows !== this.o.size.rows) this.resize(this.size);
      this.o.onState({ phase: 'ready' });
    } else this.end(event.message);
  }

  private control(message: TerminalControl) {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private end(message: string) {
    if (this.ended) return;
    this.ended = true;
    this.o.onState({ phase: 'ended', message });
    if (this.socket.readyState <= 1) this.socket.close(1000);
  }
}
