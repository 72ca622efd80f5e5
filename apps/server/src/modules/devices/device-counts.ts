import type { DeviceTotals, DeviceTotalsEstimated } from '@fleetlink/contract';
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceSearch } from '../../db/schema/index.js';

/** Counts up to this many are exact; above it they may be estimated (issue 69). */
export const EXACT_COUNT_MAX = 10_000;
/** Rows read per organization, in id order, to estimate the counts of a search matching many devices. */
export const SAMPLE_ROWS = 2000;

type Tab = keyof DeviceTotals;
const TABS: Tab[] = ['ALL', 'ONLINE', 'OFFLINE'];
const STATUS: Record<Tab, SQL | undefined> = { ALL: undefined, ONLINE: sql`${deviceSearch.online}`, OFFLINE: sql`not ${deviceSearch.online}` };

export interface CountedTotals {
  totals: DeviceTotals;
  estimated: DeviceTotalsEstimated;
}

interface OrganizationSample {
  /** Rows read: fewer than SAMPLE_ROWS means the whole organization was read. */
  n: number;
  all: number;
  online: number;
  /** The greatest device id read: how much of the id space the sample covers. */
  last: string | null;
}

/**
 * The per-tab counts of a search. Counting every match of a broad search in a million devices
 * takes PostgreSQL the better part of a second (each match is a heap row to visit), so a count is
 * exact only up to EXACT_COUNT_MAX, and estimated above it:
 *
 * 1. The first SAMPLE_ROWS devices of each organization in id order are read and matched. Ids are
 *    random, so these are a random sample, and the id of the last one says which share of the
 *    organization they are (the k-th of N random ids lies near k/N of the id space). An
 *    organization that has fewer devices is read whole, and its counts are exact.
 * 2. A tab whose estimate is clearly above EXACT_COUNT_MAX (three standard errors) keeps it,
 *    rounded to two significant digits; every other tab is counted exactly, stopping at
 *    EXACT_COUNT_MAX + 1 matches (then it is the estimate, at least that).
 */
export async function countMatches(db: Db, organizationIds: string[], match: SQL | undefined): Promise<CountedTotals> {
  if ((await searchRows(db)) <= SMALL_FLEET) {
    // A small fleet is counted outright, up to the cap: cheaper than a sample, and exact.
    const all = await countUpTo(db, organizationIds, match, undefined);
    if (all.count <= EXACT_COUNT_MAX) return exactly(all);
  }
  const samples = await sampleOrganizations(db, organizationIds, match);
  const whole = samples.every((s) => s.n < SAMPLE_ROWS);
  const sampled = { ALL: 0, ONLINE: 0, OFFLINE: 0 };
  const estimate = { ALL: 0, ONLINE: 0, OFFLINE: 0 };
  for (const s of samples) {
    const share = s.n < SAMPLE_ROWS ? 1 : idShare(s.last);
    const counts = { ALL: s.all, ONLINE: s.online, OFFLINE: s.all - s.online };
    for (const tab of TABS) {
      sampled[tab] += counts[tab];
      estimate[tab] += counts[tab] / share;
    }
  }
  const totals = { ALL: 0, ONLINE: 0, OFFLINE: 0 };
  const estimated = { ALL: false, ONLINE: false, OFFLINE: false };
  if (whole) return { totals: sampled, estimated };

  const clearlyMany = (tab: Tab) => sampled[tab] >= 30 && estimate[tab] / (1 + 3 / Math.sqrt(sampled[tab])) > EXACT_COUNT_MAX;
  const exact = TABS.filter((tab) => !clearlyMany(tab));
  if (exact.includes('ALL')) {
    // One capped count gives every tab when the search matches few devices.
    const all = await countUpTo(db, organizationIds, match, undefined);
    if (all.count <= EXACT_COUNT_MAX) return exactly(all);
  }
  // The tabs counted one by one, each by its own connection at once.
  const counted = await Promise.all(
    TABS.map((tab) => (exact.includes(tab) && tab !== 'ALL' ? countUpTo(db, organizationIds, match, STATUS[tab]) : undefined)),
  );
  TABS.forEach((tab, i) => {
    const count = counted[i]?.count;
    if (count !== undefined && count <= EXACT_COUNT_MAX) {
      totals[tab] = count;
    } else {
      totals[tab] = roughly(Math.max(estimate[tab], EXACT_COUNT_MAX + 1));
      estimated[tab] = true;
    }
  });
  return { totals, estimated };
}

const exactly = ({ count, online }: { count: number; online: number }): CountedTotals => ({
  totals: { ALL: count, ONLINE: online, OFFLINE: count - online },
  estimated: { ALL: false, ONLINE: false, OFFLINE: false },
});

/** Up to this many devices in all (PostgreSQL's own statistic), searches are counted before any sample is read. */
const SMALL_FLEET = 50_000;
const STATISTIC_MS = 60_000;
const statistics = new WeakMap<Db, { rows: number; at: number }>();

/**
 * How many search rows there are, as PostgreSQL's statistics last said (-1, never analyzed: taken
 * as few), read at most once a minute: an estimate that picks a plan, never a count that is shown.
 */
async function searchRows(db: Db): Promise<number> {
  const known = statistics.get(db);
  if (known && Date.now() - known.at < STATISTIC_MS) return known.rows;
  const result = await db.execute<{ rows: number }>(sql`select reltuples::float8 as rows from pg_class where oid = 'device_search'::regclass`);
  const rows = Number(result.rows[0]?.rows ?? -1);
  statistics.set(db, { rows, at: Date.now() });
  return rows;
}

/** The share of the uuid space up to `id` (its first 48 bits are plenty). */
function idShare(id: string | null): number {
  if (!id) return 1;
  return Math.max(parseInt(id.replace(/-/g, '').slice(0, 12), 16) + 1, 1) / 2 ** 48;
}

/** Two significant digits: what an estimate can claim. */
export function roughly(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

async function sampleOrganizations(db: Db, organizationIds: string[], match: SQL | undefined): Promise<OrganizationSample[]> {
  const matched = match ? sql`coalesce(${match}, false)` : sql`true`;
  const result = await db.execute<{ n: number; all: number; online: number; last: string | null }>(sql`
    select s.n, s.all, s.online, s.last from (values ${sql.join(
      organizationIds.map((id) => sql`(${id}::uuid)`),
      sql`, `,
    )}) as m(org)
    cross join lateral (
      select count(*)::int as n, (count(*) filter (where t.matched))::int as all,
        (count(*) filter (where t.matched and t.online))::int as online, max(t.id::text collate "C") as last
      from (
        select ${deviceSearch.deviceId} as id, ${deviceSearch.online} as online, ${matched} as matched from ${deviceSearch}
        where ${deviceSearch.organizationId} = m.org
        order by ${deviceSearch.deviceId}
        limit ${SAMPLE_ROWS}
      ) t
    ) s`);
  return result.rows.map((r) => ({ n: Number(r.n), all: Number(r.all), online: Number(r.online), last: r.last }));
}

async function countUpTo(db: Db, organizationIds: string[], match: SQL | undefined, status: SQL | undefined): Promise<{ count: number; online: number }> {
  const capped = db
    .select({ online: deviceSearch.online })
    .from(deviceSearch)
    .where(and(inArray(deviceSearch.organizationId, organizationIds), match, status))
    .limit(EXACT_COUNT_MAX + 1)
    .as('capped');
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, online: sql<number>`(count(*) filter (where ${capped.online}))::int` })
    .from(capped);
  return { count: Number(row?.count ?? 0), online: Number(row?.online ?? 0) };
}
