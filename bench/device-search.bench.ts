/**
 * Device search benchmark (issues 3 and 69): seeds BENCH_DEVICES (100,000 unless set) devices in
 * one organization (plus a tenth as many in another, so membership scoping is real) and measures
 * p50/p95 of searches with their tab counts (a "~" marks an estimated count).
 *
 *   npx tsx bench/device-search.bench.ts                                  # PGlite in a temp folder
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<fresh db> BENCH_DEVICES=1000000 npx tsx bench/device-search.bench.ts
 *
 * BENCH_KEEP=1 leaves the fleet in the database, and the next run there measures it without seeding.
 * Target: p95 < 50 ms on PostgreSQL at a million devices.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { devices, organizations } from '../apps/server/src/db/schema/index.js';
import { seedOrganization } from '../apps/server/src/modules/devices/device-fleet.test-support.js';
import { DevicesRepository } from '../apps/server/src/modules/devices/devices.repository.js';
import { InstallationKeys } from '../apps/server/src/modules/enrollment/installation-keys.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { percentile } from './percentile.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const USERNAME = 'bench@fleetlink.local';

const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'fleetlink-bench-'));
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: dataDir ?? '' });
const db = database.db;
// Search reads no installation key: a throwaway key seals none it would open.
const repo = new DevicesRepository(db, new InstallationKeys(new SecretBox(randomBytes(32))));

const t0 = performance.now();
// BENCH_KEEP leaves the seeded fleet in a PostgreSQL database; a later run there measures it again
// (seeding a million devices takes minutes).
const [kept] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.name, 'Bench fleet'));
let orgId: string;
if (kept) {
  orgId = kept.id;
  console.log(`${database.kind}: measuring the fleet a run with BENCH_KEEP left`);
} else {
  orgId = await seedOrganization(db, 'Bench fleet', DEVICES, USERNAME);
  await seedOrganization(db, 'Other fleet', Math.round(DEVICES / 10), 'other@fleetlink.local');
  // What autovacuum does in a running system: statistics, and the visibility map for index-only counts.
  await db.execute(sql`vacuum analyze devices`);
  await db.execute(sql`vacuum analyze device_search`);
  await db.execute(sql`vacuum analyze organization_members`);
  console.log(`${database.kind}: seeded ${DEVICES} + ${Math.round(DEVICES / 10)} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const [sample] = await db.select({ id: devices.id }).from(devices).where(eq(devices.organizationId, orgId)).limit(1);
const cases: [string, Parameters<DevicesRepository['search']>[0]][] = [
  ['all, first page', { member: { username: USERNAME }, limit: 20, offset: 0 }],
  ['all, online tab', { member: { username: USERNAME }, status: 'online', limit: 20, offset: 0 }],
  ['all, page 100', { member: { username: USERNAME }, limit: 20, offset: 2000 }],
  ['"kiosk" (33%)', { member: { username: USERNAME }, search: 'kiosk', limit: 20, offset: 0 }],
  ['"berl" prefix (20%)', { member: { username: USERNAME }, search: 'berl', limit: 20, offset: 0 }],
  ['"device-4242"', { member: { username: USERNAME }, search: 'device-4242', limit: 20, offset: 0 }],
  ['"host-777" offline', { member: { username: USERNAME }, search: 'host-777', status: 'offline', limit: 20, offset: 0 }],
  ['"10.0.1" ip prefix', { member: { username: USERNAME }, search: '10.0.1', limit: 20, offset: 0 }],
  ['"windows kiosk"', { member: { username: USERNAME }, search: 'windows kiosk', limit: 20, offset: 0 }],
  ['id prefix (8)', { member: { username: USERNAME }, search: sample!.id.slice(0, 8), limit: 5, offset: 0 }],
  ['dropdown "dev" size 5', { member: { username: USERNAME }, search: 'dev', limit: 5, offset: 0 }],
];

console.log(`${'query'.padEnd(24)} ${'matches'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
let worst = 0;
for (const [label, q] of cases) {
  for (let i = 0; i < 3; i++) await repo.search(q);
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    const result = await repo.search(q);
    times.push(performance.now() - start);
    total = `${result.estimated.ALL ? '~' : ''}${result.totals.ALL}`;
  }
  worst = Math.max(worst, percentile(times, 95));
  console.log(`${label.padEnd(24)} ${total.padStart(8)} ${percentile(times, 50).toFixed(1).padStart(8)} ${percentile(times, 95).toFixed(1).padStart(8)}`);
}
console.log(`worst p95: ${worst.toFixed(1)} ms (${database.kind}, ${ITERATIONS} runs per query)`);

if (process.env.DATABASE_URL && !process.env.BENCH_KEEP) {
  // Leave a shared database as found.
  await db.delete(devices).where(sql`organization_id in (select id from organizations where name in ('Bench fleet', 'Other fleet'))`);
  await db.delete(organizations).where(sql`name in ('Bench fleet', 'Other fleet')`);
}
await database.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
