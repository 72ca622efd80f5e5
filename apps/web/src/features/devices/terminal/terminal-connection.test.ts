import { describe, expect, it } from 'vitest';
import { DRAW_HIGH, DRAW_LOW, TerminalConnection, type TerminalState } from './terminal-connection';

/**
 * The page's bookkeeping only, with a stand-in for the browser's WebSocket (the real one, with a
 * real console and agent, is in e2e/terminal.e2e.ts): what it sends, and when it asks to pause.
 */
class SocketStandIn {
  static last: SocketStandIn;
  readyState = 0;
  binaryType = '';
  sent: (string | Uint8Array)[] = [];
  onopen?: () => void;
  onmessage?: (e: { data: ArrayBuffer | string }) => void;
  onclose?: (e: { reason: string }) => void;
  constructor(readonly url: string) {
    SocketStandIn.last = this;
  }
  send(data: string | Uint8Array) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  controls() {
    return this.sent.filter((m): m is string => typeof m === 'string').map((m) => JSON.parse(m) as Record<string, unknown>);
  }
}

function connect() {
  const drawn: (() => void)[] = [];
  const states: TerminalState[] = [];
  const c = new TerminalConnection({
    origin: 'https://console.example',
    deviceId: 'd1',
    token: 't',
    size: { cols: 80, rows: 24 },
    screen: { write: (_data, done) => drawn.push(done) },
    onState: (s) => states.push(s),
    WebSocket: SocketStandIn as unknown as typeof WebSocket,
  });
  const socket = SocketStandIn.last;
  socket.open();
  return { c, socket, drawn, states };
}

describe('TerminalConnection', () => {
  it('opens the device’s terminal socket, sends the token and size first, and the window’s newer size once ready', () => {
    const { c, socket, states } = connect();
    expect(socket.url).toBe('wss://console.example/api/terminal/d1');
    expect(socket.controls()[0]).toEqual({ token: 't', cols: 80, rows: 24 });
    c.resize({ cols: 100, rows: 30 });
    socket.onmessage!({ data: JSON.stringify({ type: 'ready', sessionId: 's' }) });
    expect(states).toEqual([{ phase: 'ready' }]);
    expect(socket.controls().slice(1)).toEqual([
      { type: 'resize', cols: 100, rows: 30 },
      { type: 'resize', cols: 100, rows: 30 },
    ]);
    c.input('é');
    expect(socket.sent.at(-1)).toEqual(new TextEncoder().encode('é'));
  });

  it('asks the console to pause past DRAW_HIGH undrawn bytes, and to resume below DRAW_LOW', () => {
    const { socket, drawn } = connect();
    const chunk = new ArrayBuffer(64 * 1024);
    const chunks = Math.ceil(DRAW_HIGH / chunk.byteLength) + 1;
    for (let i = 0; i < chunks; i++) socket.onmessage!({ data: chunk });
    expect(socket.controls().filter((m) => m.type === 'pause')).toHaveLength(1);
    // Drawn one by one: resumed once, when what is left is below DRAW_LOW.
    let left = chunks * chunk.byteLength;
    while (drawn.length) {
      drawn.shift()!();
      left -= chunk.byteLength;
      const resumed = socket.controls().some((m) => m.type === 'resume');
      expect(resumed).toBe(left < DRAW_LOW);
      if (resumed) break;
    }
  });

  it('says why the session ended, in the console’s words, or that the connection was lost', () => {
    const a = connect();
    a.socket.onmessage!({ data: JSON.stringify({ type: 'end', reason: 'idle', message: 'No key was pressed for 15 minutes: the session ended.' }) });
    a.socket.onclose!({ reason: 'x' });
    expect(a.states).toEqual([{ phase: 'ended', message: 'No key was pressed for 15 minutes: the session ended.' }]);
    const b = connect();
    b.socket.onclose!({ reason: '' });
    expect(b.states).toEqual([{ phase: 'ended', message: 'The connection to the console was lost.' }]);
  });
});
