/**
 * Terminal keystroke echo (issue 63): ROUNDS single keystrokes, each timed from the moment it is
 * sent until its echo is back, on loopback:
 *   - Fleetlink: the page's WebSocket (as the browser opens it) → console → relay WebSocket → a
 *     real agent (launcher and bundle) → its pseudo-terminal → back the same way;
 *   - OpenSSH: `ssh -tt` to an sshd of its own (Debian openssh-server) → its pseudo-terminal → back.
 * On both, `cat > /dev/null` runs in the pseudo-terminal, so the echo is the terminal's own (the
 * kernel's line discipline), the same work at the far end. Target: p99 < 20 ms, and within 2× of OpenSSH.
 *
 *   npx tsx bench/terminal-echo.ts
 *   ROUNDS=5000 npx tsx bench/terminal-echo.ts
 */
import { spawn } from 'node:child_process';
import { embeddedSetup, onlineMemberDevice, tearDown, type AgentProcess } from '../apps/server/src/modules/broker/broker.test-support.js';
import { openTerminal } from '../apps/server/src/modules/terminal/terminal.test-support.js';
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

async function timeEchoes(k: Keyboard): Promise<{ p50: number; p99: number; max: number }> {
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
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) };
}

async function fleetlink() {
  const s = await embeddedSetup();
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  try {
    const d = await onlineMemberDevice(s, 'terminal bench', cleanup);
    const t = await openTerminal(s.tc.url, d.device.id, d.admin);
    t.type('exec cat > /dev/null\r');
    await new Promise((r) => setTimeout(r, 500));
    const figures = await timeEchoes({
      send: (key) => t.ws.send(Buffer.from(key), { binary: true }),
      onOutput: (listener) => t.ws.on('message', (data, binary) => binary && listener(String(data))),
    });
    t.close();
    return figures;
  } finally {
    await tearDown(s, cleanup);
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

requireSshd();
const fl = await fleetlink();
const os = await openssh();
const ms = (n: number) => `${n.toFixed(2)} ms`;
console.log(`terminal keystroke echo, ${ROUNDS} keystrokes on loopback`);
console.log(`  Fleetlink (page WebSocket → console → agent → pty):  p50 ${ms(fl.p50)}  p99 ${ms(fl.p99)}  max ${ms(fl.max)}`);
console.log(`  OpenSSH   (ssh -tt → sshd → pty):                    p50 ${ms(os.p50)}  p99 ${ms(os.p99)}  max ${ms(os.max)}`);
console.log(`  ratio Fleetlink / OpenSSH: p50 ${(fl.p50 / os.p50).toFixed(2)}×  p99 ${(fl.p99 / os.p99).toFixed(2)}×`);
console.log(`  target p99 < 20 ms: ${fl.p99 < 20 ? 'met' : 'NOT met'}; within 2× of OpenSSH (p99): ${fl.p99 <= 2 * os.p99 ? 'met' : 'NOT met'}`);
process.exit(0);
