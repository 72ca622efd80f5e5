import type { DeviceSearchResult, DeviceStatus, Device, LiveDeviceChange, LiveMessage } from '@fleetlink/contract';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { deviceKeys } from '../devices/device-api';
import { metricKeys } from '../devices/summary/metrics-api';
import { tunnelKeys } from '../devices/tunnels/tunnels-api';
import { serverKeys } from '../servers/server-keys';
import { jobKeys } from '../jobs/job-keys';
import { releaseKeys } from '../agent/release-keys';
import { alertKeys } from '../alerts/alerts-api';

/** Lists (search results, the recent devices) are read again at most this often for changes other than online state. */
export const LIST_REFRESH_MIN_MS = 1000;
/** A page told to read everything again waits up to this long, so a thousand pages do not ask at once. */
export const RESYNC_SPREAD_MS = 2000;

const isSearch = (key: QueryKey) => key[0] === 'devices' && key[1] === 'search';
const isStatus = (key: QueryKey) => key[0] === 'devices' && key[1] === 'status';

/**
 * Applies the console's live messages to the page's query cache (issue 61): an online state is
 * written in place everywhere the device is shown (its page, search results, the recent devices);
 * anything else marks the queries that show it stale, and those on screen are read again. Lists are
 * read again only for what they show, at most once a second however many of their devices change.
 */
export class LiveCacheUpdater {
  private listsDue = false;
  private listTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly client: QueryClient,
    private readonly random: () => number = Math.random,
  ) {}

  apply(message: LiveMessage): void {
    switch (message.type) {
      case 'devices':
        return message.changes.forEach((c) => this.device(c));
      case 'servers':
        void this.client.invalidateQueries({ queryKey: serverKeys.all });
        return;
      case 'releases':
        void this.client.invalidateQueries({ queryKey: releaseKeys.releases });
        return;
      case 'jobs':
        // Only the person's own jobs are told; a job's page and the list read again what they show.
        void this.client.invalidateQueries({ queryKey: jobKeys.all });
        return;
      case 'alerts':
        // The person's own bell: an alert came in, or they read some on another page.
        void this.client.invalidateQueries({ queryKey: alertKeys.inbox });
        return;
      case 'resync':
        return this.readEverythingAgain(this.random() * RESYNC_SPREAD_MS);
      case 'ready':
        return;
    }
  }

  /** What the page shows is read again (after a reconnect: what happened meanwhile was not heard). */
  readEverythingAgain(afterMs = 0): void {
    setTimeout(() => void this.client.invalidateQueries(), afterMs);
  }

  dispose(): void {
    clearTimeout(this.listTimer);
  }

  private device(c: LiveDeviceChange) {
    const { client } = this;
    if (c.online !== undefined) this.setOnline(c.id, c.online);
    const parts = new Set(c.parts);
    const detail = deviceKeys.detail(c.id);
    // Every part but a load sample shows in the device's own answer. Exact: its load and timeline live
    // under its key and have their own reasons to be read.
    if ([...parts].some((p) => p !== 'metrics')) void client.invalidateQueries({ queryKey: detail, exact: true });
    if (parts.has('metrics')) void client.invalidateQueries({ queryKey: metricKeys.load(c.id) });
    if (c.online !== undefined) void client.invalidateQueries({ queryKey: [...detail, 'timeline'] });
    if (parts.has('tunnels')) void client.invalidateQueries({ queryKey: tunnelKeys.list(c.id), exact: true });
    // Lists show status, name, description, OS and addresses: read again for a device created, edited or
    // removed (it may enter or leave them), one shown in a tab its new state takes it out of, and one
    // whose agent reported for the first time; addresses that change later wait for the 60-second refresh.
    if (parts.has('settings') || parts.has('removed')) this.listsLater();
    else if (c.online !== undefined && this.listed(c.id, (_row, tab) => tab !== undefined)) this.listsLater();
    else if (parts.has('reported') && this.listed(c.id, (row) => 'properties' in row && row.properties === null)) this.listsLater();
  }

  private setOnline(id: string, online: boolean) {
    const { client } = this;
    client.setQueryData<Device>(deviceKeys.detail(id), (d) => (d && d.online !== online ? { ...d, online } : d));
    client.setQueriesData<DeviceSearchResult>({ predicate: (q) => isSearch(q.queryKey) }, (r) =>
      r?.devices.some((d) => d.id === id && d.online !== online) ? { ...r, devices: r.devices.map((d) => (d.id === id ? { ...d, online } : d)) } : r,
    );
    client.setQueriesData<DeviceStatus[]>({ predicate: (q) => isStatus(q.queryKey) }, (list) =>
      list?.some((s) => s.id === id && s.online !== online) ? list.map((s) => (s.id === id ? { ...s, online } : s)) : list,
    );
  }

  /** Whether a list in the cache shows the device in a way `matters` (given its row and the list's status tab). */
  private listed(id: string, matters: (row: DeviceSearchResult['devices'][number] | DeviceStatus, tab: string | undefined) => boolean): boolean {
    return this.client
      .getQueryCache()
      .findAll({ predicate: (q) => isSearch(q.queryKey) || isStatus(q.queryKey) })
      .some((q) => {
        const data = q.state.data as DeviceSearchResult | DeviceStatus[] | undefined;
        const rows = Array.isArray(data) ? data : (data?.devices ?? []);
        const tab = isSearch(q.queryKey) ? (q.queryKey[2] as { status?: string }).status : undefined;
        return rows.some((row) => row.id === id && matters(row, tab));
      });
  }

  private listsLater() {
    this.listsDue = true;
    this.listTimer ??= setTimeout(() => {
      this.listTimer = undefined;
      if (!this.listsDue) return;
      this.listsDue = false;
      void this.client.invalidateQueries({ predicate: (q) => isSearch(q.queryKey) || isStatus(q.queryKey) });
    }, LIST_REFRESH_MIN_MS);
  }
}
