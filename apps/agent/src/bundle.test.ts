import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

/** zod's mark: its core, once evaluated, keeps its settings on globalThis. */
const ZOD_MARK = '__zod_globalConfig';

/**
 * What the bundle loads as it starts (all its static imports), in a fresh Node: Node.js's modules,
 * and whether zod is in. `run` without a key stops at "not enrolled yet", once every module the
 * agent starts with is in; with a key it enrolls first, and stops when `server` refuses.
 */
async function loadedAtStart(o: { server?: string; env?: Record<string, string> } = {}): Promise<{ stderr: string; modules: string[]; zod: boolean }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-bundle-'));
  try {
    // Listed before anything could load more (fs.writeSync, not process.stdout, which loads modules of its own).
    const preload = path.join(dir, 'list-modules.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeSync(1, JSON.stringify({ modules: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)), zod: '${ZOD_MARK}' in globalThis })));`,
    );
    // Not spawnSync: the console a test starts answers from this process.
    const ran = await promisify(execFile)(process.execPath, ['--require', preload, path.join(dist, 'cli.mjs'), 'run', '--server', o.server ?? 'http://127.0.0.1:9', '--device', 'none', '--data-dir', path.join(dir, 'data')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH!, ...o.env },
      timeout: 20_000,
    }).catch((err: { stdout: string; stderr: string }) => err);
    return { stderr: ran.stderr, ...(JSON.parse(ran.stdout) as { modules: string[]; zod: boolean }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('what the agent bundle loads as it starts', () => {
  // Once loaded, each stays for good: leaving the four out took an idle agent on Node 24 from 63.1 to
  // 61.2 MB (issue 73). A command, an update or DEBUG loads its own when it comes.
  it('leaves out what only a command, an update or mqtt.js debug output needs', async () => {
    buildOnce();
    const { stderr, modules } = await loadedAtStart();
    expect(stderr).toContain('This agent is not enrolled yet');
    expect(modules).toContain('net'); // what it does need, so the list is the real one
    expect(modules.filter((m) => ['crypto', 'child_process', 'tty', 'v8'].includes(m))).toEqual([]);
    // mqtt.js's debug output when asked for: the real `debug`, which loads node:tty.
    expect((await loadedAtStart({ env: { DEBUG: 'mqttjs*' } })).modules).toContain('tty');
  });

  // zod and the requests' schemas took about 4 MB of an idle agent on Node 24 (issue 73): it reads
  // the ping, its release and its bundle names without them, and loads them with the first request
  // that does work on the device.
  it('leaves out zod, as it enrolls too, and the first request that does work on the device loads it', async () => {
    buildOnce();
    expect((await loadedAtStart()).zod).toBe(false);
    // An installed agent enrolls in the process that then runs for good: enrolling loads no zod either.
    const refusing = createServer((req, res) => {
      res.writeHead(req.url === '/api/agent/enroll' ? 403 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'This key is not valid.' }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const enrolling = await loadedAtStart({ server: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, env: { FLEETLINK_AGENT_KEY: 'not-a-key' } });
      expect(enrolling.stderr).toContain('This key is not valid.');
      expect(enrolling.zod).toBe(false);
    } finally {
      refusing.close();
    }
    const handler = readdirSync(dist).find((f) => f.endsWith('.mjs') && readFileSync(path.join(dist, f), 'utf8').includes('The command request is not valid.'));
    expect(handler).toBeDefined();
    const script = `import(${JSON.stringify(path.join(dist, handler!))}).then(() => process.stdout.write(String('${ZOD_MARK}' in globalThis)));`;
    expect(spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: '/', timeout: 10_000 }).stdout).toBe('true');
  });
});
