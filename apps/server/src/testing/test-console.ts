import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startConsole, type RunningConsole } from '../console.js';
import { parseEnv, type Env } from '../env.js';
import { passwordLogin } from '../idp/password-login.js';

/**
 * Where tests' servers listen: below the kernel's ephemeral range (32768 and up here), and above the
 * built-in proxy's TCP tunnel ports (20000-20999). A port the kernel hands out for listening comes
 * from the ephemeral range, where any outgoing connection of another test process (to PostgreSQL,
 * to a broker) may take it before the server binds it: CI saw "already in use" so.
 */
const TEST_PORTS = { from: 21_000, to: 32_000 };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A port free right now for a test's server; the console's issuer URL needs it before listening. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${TEST_PORTS.from} and ${TEST_PORTS.to}`);
}

export interface TestConsole extends RunningConsole {
  /** The configuration it runs with (its DATA_DIR, its DATABASE_URL when on PostgreSQL). */
  env: Env;
  /** Its DATA_DIR (blobs under `blobs/`), removed by close(). */
  dataDir: string;
  /** A fresh access token of a seeded account, obtained through the provider's sign-in form. */
  token(email: string): Promise<string>;
  /** fetch against the console's API with an optional bearer token. */
  api(pathname: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /**
   * Calls the console as a seeded account (its token asked for once), or with no token when `who`
   * is undefined; a JSON answer is parsed, any other is text, an empty one undefined.
   */
  call(who: string | undefined, method: string, pathname: string, json?: unknown): Promise<ApiAnswer>;
  /** Asks for the accounts' tokens now, for `call`: their sign-ins (audited) happen here, not inside a later step. */
  signIn(...who: string[]): Promise<void>;
  /**
   * Stops the console (its broker and proxy with it) and starts it again on the same port, data and
   * database, as agents see a console that restarts; its parts (`messaging`, `proxy`, …) are the new ones after.
   */
  restart(): Promise<void>;
  /** Stops the console, keeping its data and database, for a test that starts it again by hand. */
  stop(): Promise<void>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** Each test reads the shape it expects. */
  body: any;
}

/**
 * Starts the real console in-process on an ephemeral port with its own data: PGlite in a temp
 * folder, or, when TEST_DATABASE_URL is set, a fresh database on that PostgreSQL server.
 */
export async function startTestConsole(overrides: Record<string, string> = {}, options: { webDist?: string } = {}): Promise<TestConsole> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-test-'));
  // A database given (a second console on the first one's): nothing of its own to make or drop.
  const database = overrides.DATABASE_URL ? undefined : await createTestDatabase();
  const envOn = (port: number) => parseEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // No embedded broker unless a test asks for one on a free port: 1884 may be taken.
    MQTT_EMBEDDED_PORT: '0',
    // Nor a tunnel proxy: 2222 and 8081 may be taken too.
    TUNNEL_SSH_PORT: '0',
    // Nor the built-in release (a packed agent): tests count the releases they make.
    AGENT_BUILT_IN_RELEASE: 'false',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...overrides,
  });
  let env = envOn(overrides.PORT ? Number(overrides.PORT) : await freePort());
  const start = () => startConsole(env, { webDist: options.webDist ?? path.join(dataDir, 'no-spa') });
  // A free port found is not a port kept: another suite running beside this one may take it before
  // the console listens (seen once while a database was being made). Another free one, then.
  const firstStart = async (): Promise<RunningConsole> => {
    for (let tries = 1; ; tries++) {
      try {
        return await start();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || overrides.PORT || tries >= 5) throw err;
        env = envOn(await freePort());
      }
    }
  };
  let running = await firstStart();
  const passwords: Record<string, string> = {
    'admin@fleetlink.local': 'admin',
    'user@fleetlink.local': 'user',
    'guest@fleetlink.local': 'guest',
  };
  const tokens = new Map<string, Promise<string>>();
  let stopped = false;
  const tc: TestConsole = {
    ...running,
    env,
    dataDir,
    async restart() {
      await tc.stop();
      running = await start();
      stopped = false;
      const { close: _, ...parts } = running;
      Object.assign(tc, parts);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.close();
    },
    async close() {
      await tc.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async token(email) {
      const tokens = await passwordLogin({ consoleUrl: running.url, email, password: passwords[email] ?? '' });
      return tokens.access_token;
    },
    api(pathname, init = {}) {
      const { token, json, ...rest } = init;
      const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
      if (token) headers.authorization = `Bearer ${token}`;
      if (json !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${running.url}${pathname}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async signIn(...who) {
      // One after the other, so their audit entries come in the order given.
      for (const w of who) {
        if (!tokens.has(w)) tokens.set(w, tc.token(w));
        await tokens.get(w);
      }
    },
    async call(who, method, pathname, json) {
      if (who) await tc.signIn(who);
      const res = await tc.api(pathname, { method, token: who ? await tokens.get(who) : undefined, json });
      const text = await res.text();
      const body = !text ? undefined : res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      return { status: res.status, headers: res.headers, body };
    },
  };
  return tc;
}

/** A fresh database on the server of `adminUrl` (TEST_DATABASE_URL; none when unset), dropped by `drop()`. */
export async function createTestDatabase(
  prefix = 'fleetlink_test',
  adminUrl = process.env.TEST_DATABASE_URL,
): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!adminUrl) return undefined;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
