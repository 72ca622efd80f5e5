import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceSearch } from '../../db/schema/index.js';

/**
 * Up to this many matches (counted exactly) a page is collected through the text index and sorted
 * straight away: each match is a row to read. More, and a short walk is tried first, which reads
 * about `offset + limit` rows divided by the share of devices that match.
 */
const FEW_MATCHES = 1000;
/** Up to this many (estimated), when a short walk in name order did not find the page, too. */
const SOME_MATCHES = 50_000;
/** The rows a short walk reads at least, per organization. */
const SHORT_WALK = 4000;

export interface PageQuery {
  organizationIds: string[];
  /** The search's condition (matchCondition), the tab's status condition. */
  match: SQL | undefined;
  status: SQL | undefined;
  /** How many devices match, and whether that is an estimate. */
  matching: number;
  estimated: boolean;
  limit: number;
  offset: number;
}

/**
 * The ids of one page of matching devices in name order. PostgreSQL cannot estimate how many
 * devices a prefix query matches, so the counts pick the plan:
 * - few matches are collected through the text index and sorted;
 * - otherwise a short walk in name order (off the (organization, name, id) index, the search a
 *   filter) finds the page when matches are not rare among the first devices, as with most broad
 *   searches; when they are (matches that sort late, such as the addresses of the oldest devices),
 *   some tens of thousands of matches are still collected and sorted, and more are walked to the end.
 */
export async function pageIds(db: Db, q: PageQuery): Promise<string[]> {
  if (!q.estimated && q.matching <= FEW_MATCHES) return collect(db, q);
  const short = await shortWalk(db, q);
  if (short) return short;
  return q.matching <= SOME_MATCHES ? collect(db, q) : walk(db, q);
}

function collect(db: Db, q: PageQuery): Promise<string[]> {
  // Ordered by an expression of the name, so that PostgreSQL cannot walk the name index instead:
  // it underestimates prefix queries (two terms: ~40 rows for 16,000), and the walk would read
  // every device that sorts before the matches.
  return ids(
    db.execute<{ id: string }>(sql`
      select ${deviceSearch.deviceId} as id from ${deviceSearch}
      where ${inArray(deviceSearch.organizationId, q.organizationIds)} ${and(q.match)} ${and(q.status)}
      order by ${deviceSearch.name} || '', ${deviceSearch.deviceId} limit ${q.limit} offset ${q.offset}`),
  );
}

/**
 * Reads each organization in name order until it has its first `offset + limit` matches, or for a
 * few times that many rows at most, and keeps the matches: the page when every organization either
 * had its first `offset + limit` matches among them, or has no more rows; otherwise undefined.
 */
async function shortWalk(db: Db, q: PageQuery): Promise<string[] | undefined> {
  const end = q.offset + q.limit;
  const budget = Math.max(SHORT_WALK, end * 4);
  const rows = sql`
    select ${deviceSearch.deviceId} as id, ${deviceSearch.name} as name, ${q.match ? sql`coalesce(${q.match}, false)` : sql`true`} as matched
    from ${deviceSearch}
    where ${deviceSearch.organizationId} = m.org ${and(q.status)}
    order by ${deviceSearch.name}, ${deviceSearch.deviceId}
    limit ${budget}`;
  // The inner limits are lazy: an organization where matches are common is read only as far as
  // its page's end. Whether one with fewer matches was read to its end is asked only of it.
  const result = await db.execute<{ done: boolean; ids: string[] | null }>(sql`
    with found as materialized (
      select m.org, y.id, y.name from ${organizationValues(q.organizationIds)}
      cross join lateral (select w.id, w.name from (${rows}) w where w.matched limit ${end}) y
    ), per_organization as (
      select m.org, (select count(*) from found f where f.org = m.org) as found from ${organizationValues(q.organizationIds)}
    )
    select
      bool_and(case when p.found >= ${end} then true else (select count(*) from (${rows}) r) < ${budget} end) as done,
      array(select id from found order by name, id limit ${q.limit} offset ${q.offset}) as ids
    from per_organization p cross join lateral (select p.org) as m(org)`);
  const row = result.rows[0];
  return row?.done ? (row.ids ?? []).map(String) : undefined;
}

/** The walk to the page's end in each organization, merged: the text condition a filter, never an index scan. */
function walk(db: Db, q: PageQuery): Promise<string[]> {
  return ids(
    db.execute<{ id: string }>(sql`
      select x.id from ${organizationValues(q.organizationIds)}
      cross join lateral (
        select ${deviceSearch.deviceId} as id, ${deviceSearch.name} as name from ${deviceSearch}
        where ${deviceSearch.organizationId} = m.org ${q.match ? sql`and coalesce(${q.match}, false)` : sql``} ${and(q.status)}
        order by ${deviceSearch.name}, ${deviceSearch.deviceId}
        limit ${q.offset + q.limit}
      ) x
      order by x.name, x.id
      limit ${q.limit} offset ${q.offset}`),
  );
}

const and = (condition: SQL | undefined) => (condition ? sql`and ${condition}` : sql``);
const organizationValues = (organizationIds: string[]) => sql`(values ${sql.join(organizationIds.map((id) => sql`(${id}::uuid)`), sql`, `)}) as m(org)`;
const ids = async (result: Promise<{ rows: { id: string }[] }>) => (await result).rows.map((r) => r.id);
