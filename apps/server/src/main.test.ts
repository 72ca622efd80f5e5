import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordLogin } from './idp/password-login.js';
import { freePort } from './testing/test-console.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs `main.ts` as `npm run serve` does and collects its output. */
function launch(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    // No built-in broker unless a test asks for one: 1884 may be taken on this machine.
    env: { ...process.env, LOG_LEVEL: 'warn', MQTT_EMBEDDED_PORT: '0', TUNNEL_SSH_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('running at') && resolve());
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  started.catch(() => {}); // tests that expect a failed start await `exited` instead

  return { child, exited, started, out: () => stdout, err: () => stderr };
}

const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'fleetlink-main-'));
  dirs.push(d);
  return d;
};

describe('start and stop', () => {
  it('prints the URL and the seeded accounts, stops on SIGTERM, survives kill -9 with its data', async () => {
    const dataDir = tempDir();
    const port = String(await freePort());
    const mqttPort = String(await freePort());
    const first = launch({ PORT: port, DATA_DIR: dataDir, MQTT_EMBEDDED_PORT: mqttPort });
    await first.started;
    expect(first.out()).toContain(`Fleetlink console running at http://localhost:${port}`);
    expect(first.out()).toContain('admin@fleetlink.local / admin');
    const tokens = await passwordLogin({ consoleUrl: `http://localhost:${port}`, email: 'user@fleetlink.local', password: 'user' });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // The second start reuses the data: the signing keys and the session's refresh token still work.
    const second = launch({ PORT: port, DATA_DIR: dataDir, MQTT_EMBEDDED_PORT: mqttPort });
    await second.started;
    const me = await fetch(`http://localhost:${port}/api/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    // Saved just before a hard kill: it must be there after the next start.
    const saved = await fetch(`http://localhost:${port}/api/organization`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'COMPANY', name: 'Saved before kill', country: 'NL', address: 'Dam 1, 1012 JS Amsterdam', email: 'ops@example.com' }),
    });
    expect(saved.status).toBe(201);
    second.child.kill('SIGKILL');
    await second.exited;

    const third = launch({ PORT: port, DATA_DIR: dataDir, MQTT_EMBEDDED_PORT: mqttPort });
    await third.started;
    const refreshed = await fetch(`http://localhost:${port}/idp/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'fleetlink-console' }),
    });
    expect(refreshed.status).toBe(200);
    const { access_token } = await refreshed.json();
    const orgs = await (await fetch(`http://localhost:${port}/api/organizations`, { headers: { authorization: `Bearer ${access_token}` } })).json();
    expect(orgs.map((o: { name: string }) => o.name)).toContain('Saved before kill');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 90_000);

  it('stops with one clear line on a bad DATABASE_URL', async () => {
    const bad = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), DATABASE_URL: 'mysql://nope' });
    expect(await bad.exited).toBe(1);
    expect(bad.err().trim()).toBe('Invalid configuration: DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql://');

    const unreachable = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.err().trim().split('\n')).toHaveLength(1);
    expect(unreachable.err()).toMatch(/^Cannot connect to DATABASE_URL \(postgres:\/\/nobody@127\.0\.0\.1:1\/none\): /);
  }, 60_000);

  it('stops with one clear line when the built-in message server\'s port is taken', async () => {
    const holder = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as AddressInfo).port)));
    try {
      const run = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), MQTT_EMBEDDED_PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.err().trim()).toBe(
        `The built-in message server cannot start: port ${port} (MQTT_EMBEDDED_PORT) is already in use on 127.0.0.1; set MQTT_EMBEDDED_PORT to a free port, or to 0 to run without the built-in message server.`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it('stops with one clear line when a port of the built-in tunnel proxy is taken', async () => {
    const holder = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as AddressInfo).port)));
    try {
      const ssh = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), TUNNEL_SSH_PORT: String(port) });
      expect(await ssh.exited).toBe(1);
      expect(ssh.err().trim()).toBe(
        `The built-in tunnel proxy cannot start: port ${port} (TUNNEL_SSH_PORT) is already in use on 127.0.0.1; set TUNNEL_SSH_PORT to a free port, or TUNNEL_SSH_PORT to 0 to run without the built-in tunnel proxy.`,
      );
      const http = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(port) });
      expect(await http.exited).toBe(1);
      expect(http.err().trim()).toBe(
        `The built-in tunnel proxy cannot start: port ${port} (TUNNEL_HTTP_PORT) is already in use on 127.0.0.1; set TUNNEL_HTTP_PORT to a free port, or TUNNEL_SSH_PORT to 0 to run without the built-in tunnel proxy.`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it('stops with one clear line when the OIDC issuer is unreachable', async () => {
    const run = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), OIDC_ISSUER: 'http://127.0.0.1:1/realms/fleetlink' });
    expect(await run.exited).toBe(1);
    expect(run.err().trim().split('\n')).toHaveLength(1);
    expect(run.err()).toMatch(/^Cannot reach the OIDC issuer at http:\/\/127\.0\.0\.1:1\/realms\/fleetlink\/\.well-known\/openid-configuration/);
  }, 60_000);
});
