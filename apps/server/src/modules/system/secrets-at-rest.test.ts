import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console.js';
import { passwordLogin } from '../../idp/password-login.js';
import { loadOrCreateSecrets } from '../../idp/secrets.js';
import type { TestConsole } from '../../testing/test-console.js';
import { createDevice, enrollByHand, startAgentTestConsole } from '../broker/broker.test-support.js';
import { DeviceCredentials } from '../enrollment/credentials.js';
import { ServersRepository } from '../servers/servers.repository.js';
import { loadOrCreateSetting } from './console-secrets.js';
import { unsealAsAnOlderConsoleLeftIt } from './secrets-at-rest.test-support.js';

/** Every file of a folder, as one buffer: what a copy of the PGlite folder gives someone. */
function folderBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    parts.push(statSync(file).isDirectory() ? folderBytes(file) : readFileSync(file));
  }
  return Buffer.concat(parts);
}

/**
 * Secrets at rest (issue 36): with a copy of the database alone, nobody can use a refresh token,
 * read a server's password, compute a device's broker password or sign a token. The key is not in
 * the database, a wrong key stops the start, and a database an older console left is sealed in place.
 */
describe('secrets at rest', () => {
  let tc: TestConsole;
  let refreshToken: string;
  let serverId: string;
  let device: { id: string; key: string };
  let mqttPassword: string;
  const serverPassword = `broker-${randomBytes(9).toString('hex')}`;
  const trustStorePassword = `store-${randomBytes(9).toString('hex')}`;

  beforeAll(async () => {
    tc = await startAgentTestConsole();
    refreshToken = (await passwordLogin({ consoleUrl: tc.url, email: 'admin@fleetlink.local', password: 'admin' })).refresh_token!;
    const created = await tc.call('admin@fleetlink.local', 'POST', '/api/server', {
      ...{ type: 'MESSAGE', url: 'mqtts://mq.example:8883', maxCapacity: 10, status: 'OFFLINE' },
      ...{ username: 'console', password: serverPassword, trustStore: 'AAAA', trustStorePassword, blobBaseUrl: 'http://localhost' },
    });
    expect(created.status).toBe(201);
    serverId = created.body.id;
    device = await createDevice(tc.database.db);
    mqttPassword = (await enrollByHand(tc, device)).password;
  }, 60_000);
  afterAll(async () => tc?.close());

  const refresh = async (consoleUrl: string, token: string) => {
    const res = await fetch(`${consoleUrl}/idp/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: consoleUrl },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: 'fleetlink-console' }),
    });
    return { status: res.status, body: (await res.json()) as { refresh_token?: string; access_token?: string } };
  };

  it('keeps no secret a copy of the database would hand over', async () => {
    const { db } = tc.database;
    const signing = (await loadOrCreateSecrets(db, tc.box)).jwks.keys[0]!;
    const credentialSecret = await loadOrCreateSetting<string>(db, tc.box, 'credentialSecret', () => 'never made here');
    const secrets = {
      'a refresh token': refreshToken,
      "a server's password": serverPassword,
      "a trust store's password": trustStorePassword,
      "a device's broker password": mqttPassword,
      'the key device passwords derive from': credentialSecret,
      "the provider's private signing key": String(signing.d),
      "the console's own broker password": (await loadOrCreateSetting<{ password: string }>(db, tc.box, 'embeddedConsoleAccount', () => ({ password: 'never made here' }))).password,
    };
    // The console reads them all back (the API answers only that they are set).
    expect(await new ServersRepository(db, tc.box).findById(serverId)).toMatchObject({ password: serverPassword, trustStorePassword });
    expect((await tc.call('admin@fleetlink.local', 'GET', `/api/server/${serverId}`)).body).toMatchObject({ passwordSet: true, trustStorePasswordSet: true });

    // Copied while the console runs: PGlite's folder holds its write-ahead log too.
    const copy = tc.env.DATABASE_URL
      ? Buffer.from(execFileSync('pg_dump', ['--no-owner', tc.env.DATABASE_URL], { maxBuffer: 256 * 1024 * 1024 }))
      : folderBytes(path.join(tc.env.DATA_DIR, 'pg'));
    // The copy holds what was written: the server's URL is there, in plain text.
    expect(copy.includes('mqtts://mq.example:8883')).toBe(true);
    const found = Object.entries(secrets).filter(([, value]) => copy.includes(value)).map(([what]) => what);
    expect(found).toEqual([]);
    // What is there instead: sealed values, and the key is not among them.
    expect(copy.includes('sealed:v1:')).toBe(true);
    expect(copy.includes(readFileSync(path.join(tc.env.DATA_DIR, 'secret.key'), 'utf8').trim())).toBe(false);
  }, 120_000);

  it('does not start with another key, and starts again with its own, sessions and passwords intact', async () => {
    await tc.stop();
    await expect(startConsole({ ...tc.env, SECRET_KEY: randomBytes(24).toString('base64') }, { webDist: '/nonexistent' })).rejects.toThrow(
      /^The database's secrets were sealed with another key than SECRET_KEY\. Start with the key they were sealed with/,
    );
    const again = await startConsole(tc.env, { webDist: '/nonexistent' });
    try {
      const renewed = await refresh(again.url, refreshToken);
      expect(renewed.status).toBe(200);
      refreshToken = renewed.body.refresh_token ?? refreshToken;
      const credentials = await DeviceCredentials.open(again.database.db, again.box);
      expect((await credentials.current(device.id))?.password).toBe(mqttPassword);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('seals in place what a console before this one left in plain text, and everything keeps working', async () => {
    const old = await startConsole(tc.env, { webDist: '/nonexistent' });
    await unsealAsAnOlderConsoleLeftIt(old.database.db, old.box);
    await old.close();

    const upgraded: RunningConsole = await startConsole(tc.env, { webDist: '/nonexistent' });
    try {
      const { db } = upgraded.database;
      const plain = await db.execute<{ n: number }>(sqlCountOfPlain);
      expect(Number(plain.rows[0]!.n)).toBe(0);
      const renewed = await refresh(upgraded.url, refreshToken);
      expect(renewed.status).toBe(200);
      const me = await fetch(`${upgraded.url}/api/server/${serverId}`, { headers: { authorization: `Bearer ${renewed.body.access_token}` } });
      expect(await me.json()).toMatchObject({ passwordSet: true, trustStorePasswordSet: true });
      expect(await new ServersRepository(db, upgraded.box).findById(serverId)).toMatchObject({ password: serverPassword, trustStorePassword });
      expect((await (await DeviceCredentials.open(db, upgraded.box)).current(device.id))?.password).toBe(mqttPassword);
    } finally {
      await upgraded.close();
    }
  }, 120_000);
});

/** Rows still holding a secret in plain text. */
const sqlCountOfPlain = sql`
  select (select count(*) from servers where password not like 'sealed:v1:%' or trust_store_password not like 'sealed:v1:%')
       + (select count(*) from console_secrets where value::text not like '"sealed:v1:%')
       + (select count(*) from broker_settings where name in ('credentialSecret', 'embeddedConsoleAccount', 'embeddedProxy') and value::text not like '"sealed:v1:%')
       + (select count(*) from idp_payloads where payload::text not like '"sealed:v1:%') as n`;
