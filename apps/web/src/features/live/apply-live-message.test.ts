import type { Device, DeviceSearchResult, DeviceStatus } from '@fleetlink/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceKeys } from '../devices/device-api';
import { metricKeys } from '../devices/summary/metrics-api';
import { tunnelKeys } from '../devices/tunnels/tunnels-api';
import { LIST_REFRESH_MIN_MS, LiveCacheUpdater, RESYNC_SPREAD_MS } from './apply-live-message';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const device = (id: string, online: boolean) => ({ id, name: id.slice(-1), online }) as unknown as Device;
const search = (...devices: Device[]): DeviceSearchResult => ({ devices, totals: { ALL: devices.length, ONLINE: 0, OFFLINE: 0 }, estimated: { ALL: false, ONLINE: false, OFFLINE: false }, page: 0, size: 20 });

describe('LiveCacheUpdater', () => {
  let client: QueryClient;
  let updater: LiveCacheUpdater;
  /** How many times each query was read: an observer keeps it active, as a page on screen does. */
  const reads = new Map<string, number>();
  const watch = (key: readonly unknown[], data: unknown) => {
    client.setQueryData(key, data);
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => {
        reads.set(JSON.stringify(key), (reads.get(JSON.stringify(key)) ?? 0) + 1);
        return client.getQueryData(key) ?? null;
      },
      staleTime: Infinity,
    });
    observer.subscribe(() => {});
  };
  const readsOf = (key: readonly unknown[]) => reads.get(JSON.stringify(key)) ?? 0;

  beforeEach(() => {
    vi.useFakeTimers();
    reads.clear();
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    updater = new LiveCacheUpdater(client, () => 0.5);
  });
  afterEach(() => {
    updater.dispose();
    client.clear();
    vi.useRealTimers();
  });

  it('writes an online state in place on the device page, in search results and in the recent devices', async () => {
    watch(deviceKeys.detail(A), device(A, true));
    watch(deviceKeys.search({ status: 'online' }), search(device(A, true), device(B, true)));
    watch([...deviceKeys.all, 'status', [A, B]], [{ id: A, name: 'a', online: true, installed: true }] satisfies DeviceStatus[]);
    updater.apply({ type: 'devices', changes: [{ id: A, online: false, parts: ['state'] }] });
    expect(client.getQueryData<Device>(deviceKeys.detail(A))!.online).toBe(false);
    expect(client.getQueryData<DeviceSearchResult>(deviceKeys.search({ status: 'online' }))!.devices.map((d) => d.online)).toEqual([false, true]);
    expect(client.getQueryData<DeviceStatus[]>([...deviceKeys.all, 'status', [A, B]])![0]!.online).toBe(false);
    // The device is read again at once (its last response); the lists at most once a second.
    await vi.advanceTimersByTimeAsync(10);
    expect(readsOf(deviceKeys.detail(A))).toBe(1);
    expect(readsOf(deviceKeys.search({ status: 'online' }))).toBe(0);
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MIN_MS);
    expect(readsOf(deviceKeys.search({ status: 'online' }))).toBe(1);
  });

  it('reads again only what a change concerns: a load sample its chart, a tunnel its list', async () => {
    watch(deviceKeys.detail(A), device(A, true));
    watch(metricKeys.load(A), []);
    watch(tunnelKeys.list(A), []);
    watch(tunnelKeys.list(B), []);
    updater.apply({ type: 'devices', changes: [{ id: A, parts: ['metrics'] }] });
    await vi.advanceTimersByTimeAsync(10);
    expect([readsOf(deviceKeys.detail(A)), readsOf(metricKeys.load(A)), readsOf(tunnelKeys.list(A))]).toEqual([0, 1, 0]);
    updater.apply({ type: 'devices', changes: [{ id: A, parts: ['tunnels'] }] });
    await vi.advanceTimersByTimeAsync(10);
    expect([readsOf(deviceKeys.detail(A)), readsOf(metricKeys.load(A)), readsOf(tunnelKeys.list(A)), readsOf(tunnelKeys.list(B))]).toEqual([1, 1, 1, 0]);
  });

  it('reads a list again only for what it shows, once however many of its devices change', async () => {
    const installed = { ...device(A, true), properties: { 'os.name': 'Debian' } } as Device;
    const waiting = { ...device(B, false), properties: null } as Device;
    watch(deviceKeys.search({}), search(installed, waiting));
    watch(deviceKeys.search({ status: 'online' }), search(installed));
    // Written in place in the All tab; a periodic report of an installed agent changes nothing a list shows.
    updater.apply({ type: 'devices', changes: [{ id: A, parts: ['reported'] }] });
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MIN_MS * 2);
    expect([readsOf(deviceKeys.search({})), readsOf(deviceKeys.search({ status: 'online' }))]).toEqual([0, 0]);
    // Going offline takes it out of the Online tab: read again, once for fifty changes.
    for (let i = 0; i < 50; i++) updater.apply({ type: 'devices', changes: [{ id: A, online: i % 2 === 1, parts: ['state'] }] });
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MIN_MS);
    expect([readsOf(deviceKeys.search({})), readsOf(deviceKeys.search({ status: 'online' }))]).toEqual([1, 1]);
    // A first report: the device is no longer 'Agent not installed'.
    updater.apply({ type: 'devices', changes: [{ id: B, parts: ['reported'] }] });
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MIN_MS);
    expect(readsOf(deviceKeys.search({}))).toBe(2);
  });

  it('reads everything on screen again after a resync, spread so that pages do not all ask at once', async () => {
    watch(deviceKeys.detail(A), device(A, true));
    watch(deviceKeys.search({}), search(device(A, true)));
    updater.apply({ type: 'resync' });
    await vi.advanceTimersByTimeAsync(RESYNC_SPREAD_MS / 2 - 10);
    expect(readsOf(deviceKeys.detail(A))).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    expect([readsOf(deviceKeys.detail(A)), readsOf(deviceKeys.search({}))]).toEqual([1, 1]);
  });
});
