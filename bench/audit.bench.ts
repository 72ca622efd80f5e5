/**
 * Audit trail benchmark (issue 25): 1,000,000 entries on PostgreSQL (a fresh database, dropped
 * afterwards: the table is append-only, so nothing could clean a shared one), then the first page
 * and a deep page of each filter, read the way the console reads them (keyset cursors).
 *
 *   npx tsx bench/audit.bench.ts                       # postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_PG_URL=postgres://… BENCH_ENTRIES=200000 npx tsx bench/audit.bench.ts
 *
 * Target: p95 < 50 ms for every page, page 500 as fast as page 1.
 */
import type { AuditQuery } from '@fleetlink/contract';
import { sql } from 'drizzle-orm';
import type { Principal } from '../apps/server/src/auth/principal.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { organizationMembers, organizations } from '../apps/server/src/db/schema/index.js';
import { AuditExportsRepository } from '../apps/server/src/modules/audit/audit-exports.repository.js';
import { AuditRepository } from '../apps/server/src/modules/audit/audit.repository.js';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.js';
import { MembershipRepository } from '../apps/server/src/modules/organizations/membership.repository.js';
import { OrganizationPolicy } from '../apps/server/src/modules/organizations/organization.policy.js';
import { createTestDatabase } from '../apps/server/src/testing/test-console.js';
import { percentile } from './percentile.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const PAGE_SIZE = 50;
const ORGANIZATIONS = 10;
const DEVICES = 2_000;
const USERS = 20;
const READER = 'bench-reader@fleetlink.local';

const fresh = await createTestDatabase('fleetlink_bench_audit', process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const database = await openDatabase({ databaseUrl: fresh!.url, dataDir: '' });
const db = database.db;
const cleanUp = async () => {
  await database.close();
  await fresh!.drop();
};
const service = new AuditService(new AuditRepository(db), new AuditExportsRepository(db), new OrganizationPolicy(new MembershipRepository(db)));

try {
  const t0 = performance.now();
  const orgIds = (await db.insert(organizations).values(Array.from({ length: ORGANIZATIONS }, (_, i) => ({ type: 'COMPANY' as const, name: `Bench org ${i}` }))).returning()).map(
    (o) => o.id,
  );
  await db.insert(organizationMembers).values(orgIds.map((id) => ({ organizationId: id, email: READER, role: 'ADMIN' as const })));
  // A year of a busy fleet, oldest first (as ids grow with time): 2,000 devices in 10 organizations,
  // 20 people; commands and edits dominate, 2 % fail, sign-ins have no organization. Device, kind
  // and outcome come from independent hashes of the row number, so no filter meets a pattern.
  const orgArray = sql.raw(`array[${orgIds.map((id) => `'${id}'::uuid`).join(',')}]`);
  await db.execute(sql`
    insert into audit_entries (time, username, subject, client_address, kind, organization_id, organization_name, device_id, device_name, details, outcome, error)
    select
      date_trunc('milliseconds', now() - ((${ENTRIES} - i) * interval '30 seconds')),
      'user-' || (i % ${USERS}) || '@fleetlink.local',
      md5('user-' || (i % ${USERS})),
      '10.0.' || (i % 250) || '.' || (i % 7),
      k.kind,
      case when k.kind = 'sign-in' then null else (${orgArray})[1 + d.n % ${ORGANIZATIONS}] end,
      case when k.kind = 'sign-in' then null else 'Bench org ' || (d.n % ${ORGANIZATIONS}) end,
      case when k.kind in ('sign-in', 'member.add') then null else md5('device-' || d.n)::uuid end,
      case when k.kind in ('sign-in', 'member.add') then null else 'device-' || d.n end,
      case when k.kind = 'command' then json_build_object('name', 'execute', 'parameters', json_build_object('command', 'uptime'), 'exitCode', 0) else '{}'::json end,
      case when abs(hashint4(i * 5 + 2)::bigint) % 50 = 0 then 'error' else 'ok' end,
      case when abs(hashint4(i * 5 + 2)::bigint) % 50 = 0 then 'The device is offline: a command reaches it only while its agent is connected.' end
    from generate_series(1, ${ENTRIES}) i
  cross join lateral (select (abs(hashint4(i * 3 + 1)::bigint) % ${DEVICES})::int as n) d
    cross join lateral (select (array['command','command','command','command','device.update','device.update','sign-in','sign-in','device.create','member.add'])[(1 + abs(hashint4(i)::bigint) % 10)::int] as kind) k`);
  await db.execute(sql`vacuum analyze audit_entries`);
  console.log(`${database.kind}: seeded ${ENTRIES.toLocaleString('en')} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const reader: Principal = { subject: 'bench', sessionId: null, username: READER, name: null, email: READER, realmRoles: ['USER'], clientRoles: {}, roles: ['USER'] };
  const deviceId = (await db.execute(sql`select md5('device-42')::uuid as id`)).rows[0]!.id as string;
  const month = (monthsAgo: number) => new Date(Date.now() - monthsAgo * 30 * 86_400_000).toISOString();

  type Read = (q: AuditQuery) => Promise<{ entries: unknown[]; next: string | null }>;
  const operator: Read = (q) => service.operatorPage(q);
  const organization: Read = (q) => service.organizationPage(reader, orgIds[3]!, q);

  const cases: [string, Read, Omit<AuditQuery, 'size'>, number][] = [
    ['everything', operator, {}, 500],
    ['organization', organization, {}, 500],
    ['kind=command', operator, { kind: 'command' }, 500],
    ['outcome=error', operator, { outcome: 'error' }, 300],
    ['who', operator, { who: 'user-7@fleetlink.local' }, 500],
    ['device id', operator, { device: deviceId }, 8],
    ['device name', operator, { device: 'DEVICE-42' }, 8],
    ['org, month 6..5', organization, { from: month(6), to: month(5) }, 50],
    ['org+command+error', organization, { kind: 'command', outcome: 'error' }, 10],
  ];

  /** The cursor of page `n` (1-based), or of the last page when there are fewer, reached the way a person paging back would. */
  async function cursorOf(read: Read, filter: Omit<AuditQuery, 'size'>, n: number): Promise<{ after?: string; page: number }> {
    let after: string | undefined;
    let page = 1;
    for (; page < n; page++) {
      const { next } = await read({ ...filter, after, size: PAGE_SIZE });
      if (!next) break;
      after = next;
    }
    return { after, page };
  }

  async function time(read: Read, q: AuditQuery): Promise<{ p50: number; p95: number; rows: number }> {
    for (let i = 0; i < 3; i++) await read(q);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      rows = (await read(q)).entries.length;
      times.push(performance.now() - start);
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95), rows };
  }

  console.log(`${'filter'.padEnd(20)} ${'page'.padStart(5)} ${'rows'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}   ratio deep/first (p95)`);
  let worst = 0;
  for (const [label, read, filter, deep] of cases) {
    const first = await time(read, { ...filter, size: PAGE_SIZE });
    const { after, page } = await cursorOf(read, filter, deep);
    const last = await time(read, { ...filter, after, size: PAGE_SIZE });
    worst = Math.max(worst, first.p95, last.p95);
    const line = (page: number, r: typeof first, extra = '') =>
      console.log(`${label.padEnd(20)} ${String(page).padStart(5)} ${String(r.rows).padStart(5)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)}${extra}`);
    line(1, first);
    line(page, last, `   ${(last.p95 / first.p95).toFixed(2)}`);
  }
  console.log(`worst p95: ${worst.toFixed(2)} ms (${database.kind}, ${ENTRIES.toLocaleString('en')} entries, ${ITERATIONS} runs per page, ${PAGE_SIZE} per page)`);
} finally {
  await cleanUp();
}
