import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

describe('the agent bundle', () => {
  // npm builds ssh2's native part wherever a compiler is (CI's machine has one); without it the
  // agent runs on ssh2's JavaScript crypto and there is nothing to copy.
  it.skipIf(!existsSync(ssh2Native))("carries ssh2's native crypto where the bundled ssh2 looks for it", () => {
    const built = spawnSync(process.execPath, [path.join(agentDir, 'build.mjs')], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
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
    const built = spawnSync(process.execPath, [path.join(agentDir, 'build.mjs')], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
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
