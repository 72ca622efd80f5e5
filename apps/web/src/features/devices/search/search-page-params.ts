import type { DeviceStatusFilter } from '@fleetlink/contract';
import type { DeviceSearchParams } from '../device-api';

export const SEARCH_PAGE_SIZE = 24;
export type SearchTab = 'all' | DeviceStatusFilter;

/** What /devices/search?tab=&search=&page= shows, and what it asks the API for. */
export function searchPageOf(params: URLSearchParams): { tab: SearchTab; search: string; page: number; query: DeviceSearchParams } {
  const value = params.get('tab');
  const tab: SearchTab = value === 'online' || value === 'offline' ? value : 'all';
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  return { tab, search, page, query: { search, status: tab === 'all' ? undefined : tab, page: page - 1, size: SEARCH_PAGE_SIZE } };
}
