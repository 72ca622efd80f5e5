import { homedir } from 'node:os';
import { terminalRelayMessageSchema, type TerminalOpenRequest } from '@fleetlink/contract';
import type { IPty } from 'node-pty';
import type { RawData, WebSocket } from 'ws';
import { accepted, type BlobEndpoint } from '../files/blob-http.js';
import { log } from '../log.js';
import { Refused } from '../refused.js';

/** Output waiting in the relay past this stops the shell's output until it is down to LOW. */
const HIGH = 1024 * 1024;
const LOW = 256 * 1024;
const CONNECT_MS = 15_000;
const FRAME_MAX = 64 * 1024;
/** Sessions one agent runs at once (the console's TERMINAL_MAX_SESSIONS is the real cap; this is the agent's own guard). */
const SESSIONS_MAX = 16;

type PtyModule = typeof import('node-pty');

/**
 * `terminal.open` (issue 63): a real pseudo-terminal running the agent user's login shell
 * (`$SHELL`, else /bin/sh) in its home, joined to a relay WebSocket the agent opens to the console
 * with its device account and the session's single-use token. Bytes go both ways as they are; the
 * console sends the page's size as it changes; the shell's exit is told before the relay closes.
 * When the relay cannot take output as fast as the shell makes it (a `yes`), the pseudo-terminal is
 * paused, so the shell waits instead of the agent's memory growing.
 *
 * node-pty's native part is built by npm for the machine that built the agent and travels beside
 * the bundle (build.mjs); where it does not load, the request is refused with why.
 */
export class TerminalHost {
  private readonly sessions = new Map<string, { pty: IPty; relay: WebSocket }>();

  constructor(private readonly endpoint: () => BlobEndpoint) {}

  async open(req: TerminalOpenRequest): Promise<void> {
    if (this.sessions.size >= SESSIONS_MAX) throw new Refused(`This agent already runs ${SESSIONS_MAX} terminal sessions.`);
    const pty = await loadPty();
    const relay = await this.connect(req.url);
    let term: IPty;
    try {
      term = pty.spawn(process.env.SHELL || '/bin/sh', ['-l'], {
        name: 'xterm-256color',
        cols: req.cols,
        rows: req.rows,
        cwd: homedir(),
        env: shellEnvironment(),
        // Bytes, not strings: a character split between two reads reaches the page whole.
        encoding: null,
      });
    } catch (err) {
      relay.close(1011, 'The shell could not start.');
      throw new Refused(`The shell could not start: ${(err as Error).message}`);
    }
    this.sessions.set(req.sessionId, { pty: term, relay });
    let paused = false;
    term.onData((data: string | Buffer) => {
      relay.send(data, { binary: true }, () => {
        if (paused && relay.bufferedAmount < LOW) {
          paused = false;
          term.resume();
        }
      });
      if (!paused && relay.bufferedAmount > HIGH) {
        paused = true;
        term.pause();
      }
    });
    term.onExit(({ exitCode, signal }) => {
      this.sessions.delete(req.sessionId);
      if (relay.readyState === relay.OPEN) {
        relay.send(JSON.stringify({ type: 'exit', exitCode, signal: signal || null }));
        relay.close(1000, 'The shell exited.');
      }
    });
    relay.on('message', (data: RawData, binary: boolean) => {
      if (binary) return term.write(data as Buffer);
      let message: unknown;
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      const parsed = terminalRelayMessageSchema.safeParse(message);
      if (parsed.success && parsed.data.type === 'resize') term.resize(parsed.data.cols, parsed.data.rows);
    });
    // The page or the console went: the shell gets its hangup, as when an SSH connection drops.
    relay.on('close', () => {
      if (this.sessions.delete(req.sessionId)) term.kill('SIGHUP');
    });
    relay.on('error', (err) => log('warn', 'terminal relay failed', { sessionId: req.sessionId, err: err.message }));
  }

  /** Ends every session (the agent stops or moves). */
  end(): void {
    for (const { pty, relay } of this.sessions.values()) {
      relay.close(1001, 'The agent is stopping.');
      pty.kill('SIGHUP');
    }
    this.sessions.clear();
  }

  private async connect(relative: string): Promise<WebSocket> {
    const { consoleUrl, username, password } = this.endpoint();
    const url = new URL(relative, consoleUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const { WebSocket } = await import('ws');
    const relay = new WebSocket(url, {
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
      handshakeTimeout: CONNECT_MS,
      maxPayload: FRAME_MAX,
      perMessageDeflate: false,
    });
    return new Promise((resolve, reject) => {
      relay.once('open', () => resolve(relay));
      // The console's own words, as the blob URLs read them; the socket goes once they are read (ws
      // leaves an answer it did not expect to whoever listens for it).
      relay.once('unexpected-response', (_req, res) => {
        accepted(res, 'the terminal relay')
          .then(() => reject(new Refused(`The console refused the terminal relay: HTTP ${res.statusCode}`)), reject)
          .finally(() => relay.terminate());
      });
      relay.once('error', (err) => reject(new Refused(`The terminal relay could not reach the console: ${err.message}`)));
    });
  }
}

let loaded: Promise<PtyModule> | undefined;

/** node-pty, once; where its native part is missing or built for another system, a refusal that says so. */
function loadPty(): Promise<PtyModule> {
  loaded ??= import('node-pty').then((m) => ((m as { default?: PtyModule }).default ?? m) as PtyModule);
  return loaded.catch((err: Error) => {
    loaded = undefined;
    throw new Refused(`The terminal is not available on this device: its pseudo-terminal library (node-pty) could not be loaded (${err.message.split('\n')[0]}).`);
  });
}

/** The agent's environment without its own settings (they may name secrets), and a terminal that speaks UTF-8 in colour. */
function shellEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FLEETLINK_')) env[k] = v;
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  if (!env.LANG && !env.LC_ALL) env.LANG = 'C.UTF-8';
  return env;
}
