/**
 * Device search benchmark (issue 3): seeds 100,000 devices in one organization (plus 10,000 in
 * another, so membership scoping is real) and measures p50/p95 of searches with their tab counts.
 *
 *   npx tsx bench/device-search.bench.ts                                  # PGlite in a temp folder
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<fresh db> npx tsx bench/device-search.bench.ts
 *
 * Target: p95 < 50 ms on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { devices, organizationMembers, organizations } from '../apps/server/src/db/schema/index.js';
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

/**
 * What an agent reports, at its real size: every SPEC §3 property key, two drives, a local and a
 * public address. Half the devices have an agent; a device row is then about 1 KB, as in a fleet.
 */
const agentReport = sql`jsonb_build_object(
    'hostname', 'host-' || i, 'os.name', case when i % 3 = 0 then 'Windows 11' else 'Debian GNU/Linux' end,
    'os.version', '6.1.0-28-amd64', 'os.arch', 'x64', 'user.name', 'fleetlink', 'user.home', '/home/fleetlink',
    'user.dir', '/opt/fleetlink/agent', 'cpu.count', '4', 'cpu.sys.load', '0.0731', 'mem.total', '8236453888',
    'mem.free', '5123481600', 'swap.total', '2147479552', 'swap.free', '2147479552', 'java.mem.total', '52428800',
    'java.mem.free', '12582912', 'java.thread.alive', '11', 'java.name', 'Node.js', 'java.version', '20.20.2',
    'java.home', '/usr/local/bin/node', 'agent.bundle.version', '0.1.0', 'agent.launcher.version', '0.1.0',
    'update.bundle.version', '0.1.0')`;

async function seedOrganization(name: string, count: number, member: string): Promise<string> {
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name }).returning({ id: organizations.id });
  await db.insert(organizationMembers).values({ organizationId: org!.id, email: member, role: 'ADMIN' });
  // The search rows come from the devices table's triggers, as for every other writer.
  await db.execute(sql`
    insert into devices (organization_id, name, description, tags, installation_key, online, properties, addresses, drives, last_response)
    select ${org!.id}::uuid,
      'device-' || i,
      'Device number ' || i || ' in ' || (array['Amsterdam','Berlin','Paris','Madrid','Rome'])[1 + i % 5],
      array['rack-' || (i % 50), case when i % 3 = 0 then 'kiosk' else 'sensor' end],
      md5(i::text),
      i % 4 = 0,
      case when i % 2 = 0 then ${agentReport} end,
      jsonb_build_array(jsonb_build_object('type', 'LOCAL', 'ip', '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256))
        || case when i % 2 = 0 then jsonb_build_array(jsonb_build_object('type', 'PUBLIC', 'ip', '203.0.113.' || i % 256)) else '[]'::jsonb end,
      case when i % 2 = 0 then '[{"name":"/","root":"/","totalSpace":250375106560,"freeSpace":101234567168},{"name":"/boot/efi","root":"/boot/efi","totalSpace":535805952,"freeSpace":529080320}]'::jsonb else '[]'::jsonb end,
      now() - (i || ' seconds')::interval
    from generate_series(1, ${count}) i`);
  return org!.id;
}

const t0 = performance.now();
const orgId = await seedOrganization('Bench fleet', DEVICES, USERNAME);
await seedOrganization('Other fleet', Math.round(DEVICES / 10), 'other@fleetlink.local');
// What autovacuum does in a running system: statistics, and the visibility map for index-only counts.
await db.execute(sql`vacuum analyze devices`);
await db.execute(sql`vacuum analyze device_search`);
await db.execute(sql`vacuum analyze organization_members`);
console.log(`${database.kind}: seeded ${DEVICES} + ${Math.round(DEVICES / 10)} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

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
  let total = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    const result = await repo.search(q);
    times.push(performance.now() - start);
    total = result.totals.ALL;
  }
  worst = Math.max(worst, percentile(times, 95));
  console.log(`${label.padEnd(24)} ${String(total).padStart(8)} ${percentile(times, 50).toFixed(1).padStart(8)} ${percentile(times, 95).toFixed(1).padStart(8)}`);
}
console.log(`worst p95: ${worst.toFixed(1)} ms (${database.kind}, ${ITERATIONS} runs per query)`);

if (process.env.DATABASE_URL && !process.env.BENCH_KEEP) {
  // Leave a shared database as found.
  await db.delete(devices).where(sql`organization_id in (select id from organizations where name in ('Bench fleet', 'Other fleet'))`);
  await db.delete(organizations).where(sql`name in ('Bench fleet', 'Other fleet')`);
}
await database.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
