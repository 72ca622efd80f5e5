import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHostKey } from '@fleetlink/proxy';
import { waitFor } from '../broker/broker.test-support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROXY_BIN = path.resolve(here, '../../../../proxy/bin/fleetlink-proxy.mjs');

/** A self-signed certificate for `*.{domain}` and its key (PEM files in `dir`), made by openssl. */
export function selfSignedCertificate(dir: string, domain: string): { certFile: string; keyFile: string; cert: Buffer } {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=*.${domain}`, '-addext', `subjectAltName=DNS:*.${domain}`, '-keyout', keyFile, '-out', certFile],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certFile, keyFile, cert: readFileSync(certFile) };
}

export interface StandaloneProxy {
  child: ChildProcess;
  publicKey: string;
  output(): string;
  stop(): Promise<void>;
}

/** A host key written to `dir` as a standalone proxy reads it, and its public half to register. */
export function hostKeyFile(dir: string): { file: string; publicKey: string } {
  const { privateKey, publicKey } = generateHostKey();
  const file = path.join(dir, 'host-key');
  writeFileSync(file, privateKey, { mode: 0o600 });
  return { file, publicKey };
}

/** The real `fleetlink-proxy` as a child process, once it printed where it listens. */
export async function startStandaloneProxy(env: Record<string, string>): Promise<StandaloneProxy> {
  const child = spawn(process.execPath, [PROXY_BIN], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await waitFor(() => out.includes('fleetlink-proxy: SSH on') || child.exitCode !== null, 20_000, 'the standalone proxy to start');
  if (child.exitCode !== null) throw new Error(`fleetlink-proxy ended: ${out}`);
  return {
    child,
    publicKey: out.match(/host key (ssh-ed25519 \S+)\)/)?.[1] ?? '',
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * `fleetlink-proxy` run to its end with only `env` (no waiting in between: the console it asks is
 * in this process), for what it says when it cannot start.
 */
export function runProxyToEnd(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [PROXY_BIN], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}
