import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceSearchResult } from '@fleetlink/contract';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { roughly } from './device-counts.js';
import { seedOrganization } from './device-fleet.test-support.js';

const MEMBER = 'user@fleetlink.local';
const FLEET = 12_000;

/**
 * Issue 69: counts exact up to 10,000 matches, estimated above (and said to be), on a fleet of
 * 12,000 devices: the first page stays exact and in name order.
 */
describe('device counts of a large fleet', () => {
  let c: TestConsole;
  let token: string;
  let organizationId: string;

  beforeAll(async () => {
    c = await startTestConsole();
    token = await c.token(MEMBER);
    organizationId = await seedOrganization(c.database.db, 'Counted fleet', FLEET, MEMBER);
  }, 120_000);
  afterAll(() => c?.close());

  const search = async (query: string): Promise<DeviceSearchResult> => {
    const res = await c.api(`/api/devices?${query}`, { token });
    expect(res.status).toBe(200);
    return (await res.json()) as DeviceSearchResult;
  };
  const namesInOrder = async (where: string, limit: number) =>
    (
      await c.database.db.execute<{ name: string }>(
        sql`select name from devices where organization_id = ${organizationId} and ${sql.raw(where)} order by name, id limit ${limit}`,
      )
    ).rows.map((r) => r.name);

  it('estimates a count above 10,000, counts the smaller tabs exactly, and keeps the first page exact', async () => {
    const all = await search('size=24');
    expect(all.estimated).toEqual({ ALL: true, ONLINE: false, OFFLINE: false });
    expect(Math.abs(all.totals.ALL - FLEET)).toBeLessThanOrEqual(1500);
    expect(all.totals.ALL).toBe(roughly(all.totals.ALL));
    expect(all.totals.ONLINE).toBe(FLEET / 4);
    expect(all.totals.OFFLINE).toBe((FLEET * 3) / 4);
    expect(all.devices.map((d) => d.name)).toEqual(await namesInOrder('true', 24));
    const online = await search('status=online&size=24&page=3');
    expect(online.devices.map((d) => d.name)).toEqual((await namesInOrder('online', 96)).slice(72));
  });

  it('counts a search matching fewer than 10,000 exactly', async () => {
    const kiosks = await search('search=kiosk&size=24');
    expect(kiosks.estimated).toEqual({ ALL: false, ONLINE: false, OFFLINE: false });
    expect(kiosks.totals).toEqual({ ALL: FLEET / 3, ONLINE: FLEET / 12, OFFLINE: FLEET / 4 });
    expect(kiosks.devices.map((d) => d.name)).toEqual(await namesInOrder(`'kiosk' = any(tags)`, 24));
    const one = await search('search=device-4242');
    expect(one.totals).toEqual({ ALL: 1, ONLINE: 0, OFFLINE: 1 });
    expect(one.devices.map((d) => d.name)).toEqual(['device-4242']);
  });

  it('estimates a search matching more than 10,000, and its page is exact', async () => {
    const many = await search('search=dev&size=5');
    expect(many.estimated.ALL).toBe(true);
    expect(Math.abs(many.totals.ALL - FLEET)).toBeLessThanOrEqual(1500);
    expect(many.devices.map((d) => d.name)).toEqual(await namesInOrder('true', 5));
  });

  it('rounds an estimate to two significant digits', () => {
    expect([roughly(333_333), roughly(12_345), roughly(10_001), roughly(999_999), roughly(87)]).toEqual([330_000, 12_000, 10_000, 1_000_000, 87]);
  });
});
