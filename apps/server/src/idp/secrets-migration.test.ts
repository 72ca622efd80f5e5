import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { databaseAtMigration } from '../db/migrations.test-support.js';
import { openSecretsAtRest } from '../modules/system/secrets-at-rest.js';
import { loadOrCreateSecrets } from './secrets.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upgrading a database made before console_secrets (migration 0016)', () => {
  it("keeps the built-in provider's keys, so its tokens and sessions stay valid", async () => {
    const dataDir = path.join(dir, 'data');
    const client = await databaseAtMigration(dataDir, 15);
    const keys = { jwks: { keys: [{ kty: 'RSA', kid: 'old-kid', n: 'n', e: 'AQAB' }] }, cookieKeys: ['old-cookie-key'] };
    await client.query(`insert into idp_secrets (name, value) values ('keys', $1)`, [JSON.stringify(keys)]);
    await client.close();

    const database = await openDatabase({ dataDir });
    try {
      const box = await openSecretsAtRest(database.db, { key: randomBytes(32), where: 'a test key' });
      expect(await loadOrCreateSecrets(database.db, box)).toEqual(keys);
    } finally {
      await database.close();
    }
  });
});
