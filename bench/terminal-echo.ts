/**
 * Terminal keystroke echo (issue 63): ROUNDS single keystrokes, each timed from the moment it is
 * sent until its echo is back, on loopback:
 *   - Fleetlink: the page's WebSocket (as the browser opens it) → console → relay WebSocket → a
 *     real agent (launcher and bundle) → its pseudo-terminal → back the same way;
 *   - OpenSSH: `ssh -tt` to an sshd of its own (Debian openssh-server) → its pseudo-terminal → back.
 *   - bare Node (reference for what Node costs here): a WebSocket straight to a Node process that
 *     runs node-pty, no console, no checks, no MQTT: one hop where Fleetlink has two.
 * On all, `cat > /dev/null` runs in the pseudo-terminal, so the echo is the terminal's own (the
 * kernel's line discipline), the same work at the far end. Both clients run in a process of their
 * own, as a browser and `ssh` would (this file again, as `client`): the console's process has only
 * the console in it. Target: p99 < 20 ms, and within 2× of OpenSSH.
 *
 *   npx tsx bench/terminal-echo.ts
 *   ROUNDS=5000 npx tsx bench/terminal-echo.ts
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { terminalPath } from '@fleetlink/contract';
import WebSocket, { WebSocketServer } from 'ws';
import { embeddedSetup, onlineMemberDevice, tearDown, type AgentProcess } from '../apps/server/src/modules/broker/broker.test-support.js';
import { requireSshd, startLocalSshd } from './local-sshd.js';
import { percentile } from './percentile.js';

const ROUNDS = Number(process.env.ROUNDS ?? 1000);
const WARM_UP = 50;
const KEYS = 'abcdefghijklmnopqrstuvwxyz';

/** Keystrokes one at a time: `send` a key, and `echoed` resolves when output holding it came back. */
interface Keyboard {
  send(key: string): void;
  onOutput(listener: (text: string) => void): void;
}

interface Figures {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

async function timeEchoes(k: Keyboard): Promise<Figures> {
  let waiting: { key: string; resolve: () => void } | undefined;
  k.onOutput((text) => {
    if (waiting && text.includes(waiting.key)) {
      const w = waiting;
      waiting = undefined;
      w.resolve();
    }
  });
  const once = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const key = KEYS[i % KEYS.length]!;
      const started = performance.now();
      const timer = setTimeout(() => reject(new Error(`no echo of '${key}' within 5 s`)), 5000);
      waiting = { key, resolve: () => (clearTimeout(timer), resolve(performance.now() - started)) };
      k.send(key);
    });
  for (let i = 0; i < WARM_UP; i++) await once(i);
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) samples.push(await once(i));
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99), max: Math.max(...samples) };
}

async function fleetlink() {
  // The defaults a fleet runs with, not the tests' once-a-second telemetry.
  const s = await embeddedSetup({ AGENT_HEARTBEAT_SECONDS: '30', AGENT_METRICS_SECONDS: '60' });
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  try {
    const d = await onlineMemberDevice(s, 'terminal bench', cleanup);
    return await runClient({ BENCH_CONSOLE: s.tc.url, BENCH_DEVICE: d.device.id, BENCH_TOKEN: d.admin });
  } finally {
    await tearDown(s, cleanup);
  }
}

/** The page's side in a process of its own, as a browser is. */
async function runClient(env: Record<string, string>): Promise<Figures> {
  const client = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'client'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  client.stdout.on('data', (c) => (out += c));
  await new Promise((resolve) => client.on('exit', resolve));
  return JSON.parse(out) as Figures;
}

/** The bare reference's host: a WebSocket server whose every connection is a pseudo-terminal; prints its port. */
async function bareHost() {
  const pty = await import('node-pty');
  const server: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => {
    process.stdout.write(`${(server.address() as { port: number }).port}\n`);
  });
  server.on('connection', (ws: WebSocket) => {
    const term = pty.spawn('/bin/sh', [], { cols: 80, rows: 24, encoding: null });
    term.onData((data: string | Buffer) => ws.send(data, { binary: true }));
    ws.on('message', (data: Buffer) => term.write(data));
    ws.on('close', () => term.kill());
  });
}

async function bare(): Promise<Figures> {
  const host = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'bare-host'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve) => host.stdout.once('data', (d: Buffer) => resolve(String(d).trim())));
    return await runClient({ BENCH_CONSOLE: `http://127.0.0.1:${port}`, BENCH_TOKEN: '' });
  } finally {
    host.kill();
  }
}

async function openssh() {
  const sshd = await startLocalSshd();
  const ssh = spawn('ssh', ['-tt', '-o', 'LogLevel=ERROR', ...sshd.sshArgs, 'exec cat > /dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    // The first key that comes back says the session is up.
    await new Promise<void>((resolve) => {
      const poke = setInterval(() => ssh.stdin.write('.'), 200);
      ssh.stdout.once('data', () => (clearInterval(poke), resolve()));
    });
    await new Promise((r) => setTimeout(r, 300));
    return await timeEchoes({ send: (key) => ssh.stdin.write(key), onOutput: (listener) => ssh.stdout.on('data', (d: Buffer) => listener(String(d))) });
  } finally {
    ssh.kill();
    sshd.close();
  }
}

/**
 * The page's side: opens the terminal as the page does (or, without a token, the bare host's
 * socket), times the keystrokes, prints the figures as JSON.
 */
async function pageClient() {
  const consoleUrl = process.env.BENCH_CONSOLE!;
  const token = process.env.BENCH_TOKEN;
  const ws = new WebSocket(consoleUrl.replace(/^http/, 'ws') + (token ? terminalPath(process.env.BENCH_DEVICE!) : '/'), { origin: new URL(consoleUrl).origin });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  if (token) {
    ws.send(JSON.stringify({ token, cols: 80, rows: 24 }));
    await new Promise<void>((resolve) => ws.on('message', (data, binary) => !binary && String(data).includes('"ready"') && resolve()));
  }
  ws.send(Buffer.from('exec cat > /dev/null\r'), { binary: true });
  await new Promise((r) => setTimeout(r, 500));
  const figures = await timeEchoes({
    send: (key) => ws.send(Buffer.from(key), { binary: true }),
    onOutput: (listener) => ws.on('message', (data, binary) => binary && listener(String(data))),
  });
  ws.close();
  process.stdout.write(JSON.stringify(figures));
  process.exit(0);
}

async function main() {
  requireSshd();
  const fl = await fleetlink();
  const os = await openssh();
  const nb = await bare();
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`terminal keystroke echo, ${ROUNDS} keystrokes on loopback`);
  console.log(`  Fleetlink (page WebSocket → console → agent → pty):  p50 ${ms(fl.p50)}  p90 ${ms(fl.p90)}  p99 ${ms(fl.p99)}  max ${ms(fl.max)}`);
  console.log(`  OpenSSH   (ssh -tt → sshd → pty):                    p50 ${ms(os.p50)}  p90 ${ms(os.p90)}  p99 ${ms(os.p99)}  max ${ms(os.max)}`);
  console.log(`  bare Node (WebSocket → node-pty, one hop):           p50 ${ms(nb.p50)}  p90 ${ms(nb.p90)}  p99 ${ms(nb.p99)}  max ${ms(nb.max)}`);
  console.log(`  ratio Fleetlink / OpenSSH: p50 ${(fl.p50 / os.p50).toFixed(2)}×  p99 ${(fl.p99 / os.p99).toFixed(2)}×; Fleetlink / bare Node: p50 ${(fl.p50 / nb.p50).toFixed(2)}×  p99 ${(fl.p99 / nb.p99).toFixed(2)}×`);
  console.log(`  target p99 < 20 ms: ${fl.p99 < 20 ? 'met' : 'NOT met'}; within 2× of OpenSSH (p99): ${fl.p99 <= 2 * os.p99 ? 'met' : 'NOT met'}`);
  process.exit(0);
}

if (process.argv[2] === 'client') await pageClient();
else if (process.argv[2] === 'bare-host') await bareHost();
else await main();
