import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordLogin } from './idp/password-login.js';
import { freePort } from './testing/test-console.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `npm run token -- <email>` from the repository's root, as a person runs it on the console's machine. */
async function runTokenScript(email: string, env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await tokenScript(email, env);
  expect(code, stderr).toBe(0);
  return stdout.trim();
}

async function tokenScript(email: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/token.ts', email], {
    cwd: path.resolve(serverDir, '../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

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
    // npm run token finds the console of its DATA_DIR on whatever PORT it was started with.
    const found = await runTokenScript('admin@fleetlink.local', { PORT: '', CONSOLE_URL: '', DATA_DIR: dataDir });
    const meFound = await fetch(`http://localhost:${port}/api/me`, { headers: { authorization: `Bearer ${found}` } });
    expect((await meFound.json()).username).toBe('admin@fleetlink.local');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Stopped: it no longer says it runs, and the script says what to do.
    const none = await tokenScript('admin@fleetlink.local', { PORT: '', CONSOLE_URL: '', DATA_DIR: dataDir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`and none has said it runs on DATA_DIR ${dataDir}: start it with npm start, or set PORT (or CONSOLE_URL)`);

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

  it('listens on loopback by default, and gives the seeded accounts generated passwords when it listens beyond', async () => {
    const dataDir = tempDir();
    const port = String(await freePort());
    const url = `http://localhost:${port}`;
    const signIn = (email: string, password: string) => passwordLogin({ consoleUrl: url, email, password });

    // A console first tried out on loopback, with the well-known passwords…
    const tried = launch({ PORT: port, DATA_DIR: dataDir });
    await tried.started;
    expect(tried.out()).toContain('admin@fleetlink.local / admin  (USER, ADMIN)');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    // Out of other machines' reach: this machine's own network address gets no answer.
    const external = Object.values(networkInterfaces()).flat().find((i) => i?.family === 'IPv4' && !i.internal)?.address;
    if (external) await expect(fetch(`http://${external}:${port}/api/health`)).rejects.toThrow();
    tried.child.kill('SIGTERM');
    await tried.exited;

    // …then opened to the network: each well-known password is replaced, and the new ones shown once.
    const exposed = launch({ PORT: port, DATA_DIR: dataDir, HOST: '0.0.0.0', IDP_GUEST_PASSWORD: 'guest-from-the-env' });
    await exposed.started;
    const shown = (email: string) => new RegExp(`${email.replace('.', '\\.')} / ([A-Za-z0-9_-]{24})  `).exec(exposed.out())?.[1];
    if (external) expect((await fetch(`http://${external}:${port}/api/health`)).status).toBe(200);
    const adminPassword = shown('admin@fleetlink.local');
    expect(adminPassword).toBeDefined();
    expect(shown('user@fleetlink.local')).toBeDefined();
    expect(exposed.out()).toContain('guest@fleetlink.local / (from IDP_GUEST_PASSWORD)  (no role)');
    expect(exposed.out()).toContain('so the accounts above got generated passwords');
    await expect(signIn('admin@fleetlink.local', 'admin')).rejects.toThrow('invalid email or password');
    await expect(signIn('guest@fleetlink.local', 'guest')).rejects.toThrow('invalid email or password');
    expect((await signIn('admin@fleetlink.local', adminPassword!)).access_token).toBeTruthy();
    expect((await signIn('guest@fleetlink.local', 'guest-from-the-env')).access_token).toBeTruthy();

    // Kept for npm run token on this machine, readable by its owner only.
    const kept = path.join(dataDir, 'seeded-passwords.txt');
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(readFileSync(kept, 'utf8')).toContain(`admin@fleetlink.local ${adminPassword}`);
    const token = await runTokenScript('admin@fleetlink.local', { PORT: port, DATA_DIR: dataDir });
    const me = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me.json()).username).toBe('admin@fleetlink.local');
    exposed.child.kill('SIGTERM');
    await exposed.exited;

    // The next start shows no password; a variable set now wins.
    const again = launch({ PORT: port, DATA_DIR: dataDir, HOST: '0.0.0.0', IDP_USER_PASSWORD: 'user-from-the-env' });
    await again.started;
    expect(again.out()).not.toContain(adminPassword);
    expect(again.out()).toContain(`admin@fleetlink.local / (generated at an earlier start; kept in ${kept} unless deleted)`);
    expect((await signIn('user@fleetlink.local', 'user-from-the-env')).access_token).toBeTruthy();
    expect((await signIn('admin@fleetlink.local', adminPassword!)).access_token).toBeTruthy();
    again.child.kill('SIGTERM');
    await again.exited;
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

  it('stops with one clear line when the metrics port is taken (issue 67)', async () => {
    const holder = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as AddressInfo).port)));
    try {
      const run = launch({ PORT: String(await freePort()), DATA_DIR: tempDir(), METRICS_PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.err().trim()).toBe(
        `The metrics listener cannot start: port ${port} (METRICS_PORT) is already in use on 127.0.0.1; set METRICS_PORT to a free port, or unset it to serve no metrics.`,
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

describe('the log', () => {
  it('holds no password, token or key of the requests that carried one, and control characters get a 400 naming the field', async () => {
    const dataDir = tempDir();
    const port = String(await freePort());
    const run = launch({ PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    await run.started;
    const base = `http://localhost:${port}`;
    const tokens = await passwordLogin({ consoleUrl: base, email: 'admin@fleetlink.local', password: 'admin' });
    expect(tokens.refresh_token).toBeTypeOf('string');
    const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const brokerPassword = 'broker-password-4c1f7e';
    const server = { type: 'MESSAGE', url: 'mqtt://mq.example:1883', maxCapacity: 10, status: 'OFFLINE', username: 'console', trustStore: 'AAAA', trustStorePassword: 'store-password-9d2e', blobBaseUrl: 'http://localhost' };
    expect((await call('POST', '/api/server', { ...server, password: brokerPassword })).status).toBe(201);

    const refusals = [
      await call('POST', '/api/server', { ...server, password: `${brokerPassword}\u0000` }),
      await call('POST', '/api/device', { name: 'pump\u0000station' }),
      await call('POST', '/api/organization', { type: 'COMPANY', name: 'Acme\u0000', country: 'NL', address: 'Dam 1', email: 'ops@example.com' }),
      await call('POST', '/api/agent/enroll', { deviceId: '5d0f0c1e-0000-4000-8000-000000000000', key: 'installation-key-77ab\u0000' }, { authorization: '' }),
    ];
    expect(refusals).toEqual([
      { status: 400, body: { code: 'VALIDATION_FAILED', message: 'Password cannot contain control characters.', fields: { password: 'Password cannot contain control characters.' } } },
      { status: 400, body: { code: 'VALIDATION_FAILED', message: 'Name cannot contain control characters.', fields: { name: 'Name cannot contain control characters.' } } },
      { status: 400, body: { code: 'VALIDATION_FAILED', message: 'Name cannot contain control characters.', fields: { name: 'Name cannot contain control characters.' } } },
      { status: 400, body: { code: 'VALIDATION_FAILED', message: 'Key cannot contain control characters.', fields: { key: 'Key cannot contain control characters.' } } },
    ]);
    // A request the log describes, with its bearer token.
    expect((await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const log = run.out() + run.err();
    expect(log).toContain('"msg":"request completed"');
    for (const secret of [brokerPassword, 'store-password-9d2e', 'installation-key-77ab', tokens.access_token, tokens.refresh_token!, '"admin"']) {
      expect(log.includes(secret), secret.slice(0, 24)).toBe(false);
    }
  }, 60_000);
});
