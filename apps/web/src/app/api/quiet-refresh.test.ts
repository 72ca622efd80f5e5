import { QueryClient, type QueryFunctionContext } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { GENERIC_ERROR_MESSAGE } from './api-error';
import { quietRefresh } from './quiet-refresh';

describe('quietRefresh', () => {
  it('shows a first load that cannot reach the console, and keeps a later refresh that cannot quiet', async () => {
    let up = false;
    const fetch = vi.fn(async () => {
      if (!up) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify([1, 2]), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const onError = vi.fn();
    const api = createApiClient({ getAccessToken: async () => 'token-1', onError, fetch });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = () =>
      client.fetchQuery({
        queryKey: ['metrics', 'd1'],
        queryFn: (ctx: QueryFunctionContext) => api.request('/api/device/d1/metrics', quietRefresh(ctx)),
        staleTime: 0,
      });

    // The first load: nothing on the page yet, so the person hears of it.
    await expect(load()).rejects.toThrow('Failed to fetch');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(GENERIC_ERROR_MESSAGE);

    up = true;
    await expect(load()).resolves.toEqual([1, 2]);

    // The console restarts while the page shows its data: the refresh fails without an alert.
    up = false;
    await expect(load()).rejects.toThrow('Failed to fetch');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(['metrics', 'd1'])).toEqual([1, 2]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
