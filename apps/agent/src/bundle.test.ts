import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const agentDir = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(agentDir, 'dist');
const NATIVE = './crypto/build/Release/sshcrypto.node';
const ssh2Native = path.join(path.dirname(createRequire(import.meta.url).resolve('ssh2/lib/protocol/crypto.js')), NATIVE);

/** Whether npm built ssh2's native part for the Node running this test (node_modules' own copy loads). */
function builtForThisNode(): boolean {
  try {
    createRequire(import.meta.url)(ssh2Native);
    return true;
  } catch {
    return false;
  }
}

let built: ReturnType<typeof spawnSync> | undefined;

/** Builds dist/ from this checkout, once for the file's tests (each checks a part of the same build). */
function buildOnce() {
  built ??= spawnSync(process.execPath, [path.join(agentDir, 'build.mjs')], { encoding: 'utf8' });
  expect(built.status, String(built.stderr)).toBe(0);
}

describe('the agent bundle', () => {
  // npm builds ssh2's native part wherever a compiler is (CI's machine has one); without it the
  // agent runs on ssh2's JavaScript crypto and there is nothing to copy.
  it.skipIf(!existsSync(ssh2Native))("carries ssh2's native crypto where the bundled ssh2 looks for it", () => {
    buildOnce();
    // The bundled ssh2 asks for it relative to its own chunk, which is in dist/.
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.mjs'));
    expect(chunks.some((f) => readFileSync(path.join(dist, f), 'utf8').includes(`"${NATIVE}"`))).toBe(true);
    expect(readFileSync(path.join(dist, NATIVE)).equals(readFileSync(ssh2Native))).toBe(true);
    // It is built for the Node that npm ran on (the console's, 24). An agent on an older line (CI
    // runs this suite on Node 20 too) cannot load it, and ssh2 uses its JavaScript crypto there.
    const load = () => createRequire(path.join(dist, chunks[0]!))(NATIVE) as Record<string, unknown>;
    if (builtForThisNode()) expect(typeof load().AESGCMCipher).toBe('function');
    else expect(load).toThrow(/self-register|NODE_MODULE_VERSION/);
  });
});

const ptyNative = path.join(path.dirname(createRequire(import.meta.url).resolve('node-pty/package.json')), 'build/Release/pty.node');

describe('the agent bundle and its terminal', () => {
  // npm builds node-pty wherever a compiler is (CI's machine has one); without it the agent refuses terminals, saying why.
  it.skipIf(!existsSync(ptyNative))("carries node-pty's native part where the bundled node-pty looks for it, and it runs a shell", () => {
    buildOnce();
    expect(readFileSync(path.join(dist, 'build/Release/pty.node')).equals(readFileSync(ptyNative))).toBe(true);
    // The bundled node-pty, from dist/ with no node_modules on its way, opens a pseudo-terminal.
    const chunk = readdirSync(dist).find((f) => f.endsWith('.mjs') && readFileSync(path.join(dist, f), 'utf8').includes('loadNativeModule'));
    expect(chunk).toBeDefined();
    const script = `import(${JSON.stringify(path.join(dist, chunk!))}).then(({ default: pty }) => {
      pty.spawn('/bin/sh', ['-c', 'stty size'], { cols: 77, rows: 11 }).onData((d) => process.stdout.write(d));
    });`;
    const ran = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: '/', timeout: 10_000 });
    expect(ran.stdout).toContain('11 77');
  });
});

/**
 * The Node.js modules the bundle loads as it starts (all its static imports), in a fresh Node:
 * `run` without a key stops at "not enrolled yet", once every module the agent starts with is in.
 */
function modulesAtStart(env: Record<string, string> = {}): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-bundle-'));
  try {
    // Listed before anything could load more (fs.writeSync, not process.stdout, which loads modules of its own).
    const preload = path.join(dir, 'list-modules.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(1, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)))));");
    const ran = spawnSync(process.execPath, ['--require', preload, path.join(dist, 'cli.mjs'), 'run', '--server', 'http://127.0.0.1:9', '--device', 'none', '--data-dir', path.join(dir, 'data')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH!, ...env },
    });
    expect(ran.stderr).toContain('This agent is not enrolled yet');
    return JSON.parse(ran.stdout) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('what the agent bundle loads as it starts', () => {
  // Once loaded, each stays for good: leaving the four out took an idle agent on Node 24 from 63.1 to
  // 61.2 MB (issue 73). A command, an update or DEBUG loads its own when it comes.
  it('leaves out what only a command, an update or mqtt.js debug output needs', () => {
    buildOnce();
    const loaded = modulesAtStart();
    expect(loaded).toContain('net'); // what it does need, so the list is the real one
    expect(loaded.filter((m) => ['crypto', 'child_process', 'tty', 'v8'].includes(m))).toEqual([]);
    // mqtt.js's debug output when asked for: the real `debug`, which loads node:tty.
    expect(modulesAtStart({ DEBUG: 'mqttjs*' })).toContain('tty');
  });
});
