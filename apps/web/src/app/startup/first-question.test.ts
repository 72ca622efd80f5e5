import { RealmRole } from '@fleetlink/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/api-client';
import { prefetchLandingData } from '../router/lazy-page';
import { askFirstQuestion, FIRST_ANSWER_KEPT_MS } from './first-question';

const USER = [RealmRole.User];
const answer = () => new Response('{}', { headers: { 'content-type': 'application/json' } });
const fakeFetch = () => vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer());

/** What the bootstrap asks for at `href`, signed in with `roles`: the address, or nothing. */
function askedAt(href: string, roles: readonly string[] = USER): string | undefined {
  const url = new URL(href, 'https://console.example');
  const fetch = fakeFetch();
  askFirstQuestion(url, 'token-1', roles, fetch);
  return fetch.mock.calls[0]?.[0] as string | undefined;
}

/** What the route of the page at `href` asks first, as the console starts (its `prefetch`). */
async function routeAsksAt(href: string): Promise<string | undefined> {
  await import('../router/routes');
  const url = new URL(href, 'https://console.example');
  const asked: string[] = [];
  const api = { request: async (path: string) => (asked.push(path), {}) } as unknown as ApiClient;
  prefetchLandingData(url, { queryClient: new QueryClient(), api, roles: USER });
  await Promise.resolve();
  return asked[0];
}

afterEach(() => vi.useRealTimers());

describe("the landing page's first question, asked by the bootstrap", () => {
  it('is the question its route asks, for the device list and for a device', async () => {
    for (const href of ['/devices/search', '/devices/search?tab=offline&search=%20kiosk%20&page=3', '/devices/0b7c2f52-5e0a-4a39-9a55-3c1d3b1d0c11/storage']) {
      const expected = await routeAsksAt(href);
      expect(expected, href).toBeDefined();
      expect(askedAt(href), href).toBe(expected);
    }
    expect(askedAt('/devices/search?tab=offline&search=%20kiosk%20&page=3')).toBe('/api/devices?search=kiosk&status=offline&page=2&size=24');
  });

  it('is asked with the bearer token, as the console asks', () => {
    const fetch = fakeFetch();
    askFirstQuestion(new URL('https://console.example/devices/search'), 'token-1', USER, fetch);
    expect(new Headers(fetch.mock.calls[0]![1]!.headers).get('Authorization')).toBe('Bearer token-1');
  });

  it('is not asked for someone the page is not for, nor for a page without one', () => {
    expect(askedAt('/devices/search', [])).toBeUndefined();
    expect(askedAt('/devices/new')).toBeUndefined();
    expect(askedAt('/')).toBeUndefined();
    expect(askedAt('/privacy-policy')).toBeUndefined();
    expect(askedAt('/devices/%E0%A4%A')).toBeUndefined();
  });

  it('is taken once, for the same question, while it is fresh', async () => {
    vi.useFakeTimers();
    const fetch = fakeFetch();
    const first = askFirstQuestion(new URL('https://console.example/devices/search'), 'token-1', USER, fetch);
    expect(first.take('/api/devices?size=12')).toBeUndefined();
    await expect(first.take('/api/devices?size=24')).resolves.toBeInstanceOf(Response);
    expect(first.take('/api/devices?size=24')).toBeUndefined();

    const stale = askFirstQuestion(new URL('https://console.example/devices/search'), 'token-1', USER, fetch);
    vi.advanceTimersByTime(FIRST_ANSWER_KEPT_MS + 1);
    expect(stale.take('/api/devices?size=24')).toBeUndefined();
  });

  it('that failed leaves no unhandled rejection behind until it is taken', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const first = askFirstQuestion(new URL('https://console.example/devices/search'), 'token-1', USER, async () => Promise.reject(new TypeError('Failed to fetch')));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(first.take('/api/devices?size=24')).rejects.toThrow('Failed to fetch');
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
