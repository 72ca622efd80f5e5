import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { databaseAtMigration } from '../../db/migrations.test-support.js';
import { deviceLifetimes } from '../../db/schema/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upgrading a database made before invoices', () => {
  it('bills its existing devices from their creation', async () => {
    const dataDir = path.join(dir, 'data');
    // As it was before invoices (0000–0014).
    const client = await databaseAtMigration(dataDir, 14);
    const {
      rows: [org],
    } = await client.query<{ id: string }>(`insert into organizations (type, name) values ('COMPANY', 'Old') returning id`);
    await client.query(`insert into devices (organization_id, name, installation_key, created_at) values ($1, 'old-device', 'k', '2026-01-15T10:00:00Z')`, [org.id]);
    await client.close();

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(deviceLifetimes);
      expect(rows).toEqual([expect.objectContaining({ organizationId: org.id, deviceName: 'old-device', startedAt: new Date('2026-01-15T10:00:00Z'), endedAt: null })]);
    } finally {
      await database.close();
    }
  });
});
