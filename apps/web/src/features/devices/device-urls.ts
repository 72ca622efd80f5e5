import type { DeviceSearchParams } from './device-api';

// The device questions' addresses, in a module of their own: the bootstrap asks a landing page's
// first question with them (first-question.ts) before the console's code, queries and all, is there.

/** GET: a page of the devices found. */
export function searchUrl({ search, status, page, size }: DeviceSearchParams): string {
  const params = new URLSearchParams();
  if (search?.trim()) params.set('search', search.trim());
  if (status) params.set('status', status);
  if (page) params.set('page', String(page));
  if (size) params.set('size', String(size));
  const query = params.toString();
  return query ? `/api/devices?${query}` : '/api/devices';
}

/** GET: one device. */
export const deviceUrl = (id: string) => `/api/device/${encodeURIComponent(id)}`;
