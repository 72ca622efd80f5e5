import { RealmRole } from '@fleetlink/contract';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient, needsBearerToken } from './api-client';
import { ApiRequestError, GENERIC_ERROR_MESSAGE } from './api-error';
import { askFirstQuestion } from '../startup/first-question';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function setup(response: Response | (() => Promise<Response>)) {
  const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    typeof response === 'function' ? response() : response,
  );
  const onError = vi.fn();
  const api = createApiClient({ getAccessToken: async () => 'token-1', onError, fetch });
  const headers = () => new Headers(fetch.mock.calls[0]?.[1]?.headers);
  return { api, fetch, onError, headers };
}

describe('needsBearerToken', () => {
  it('covers API paths except the public ones', () => {
    expect(needsBearerToken('/api/me')).toBe(true);
    expect(needsBearerToken('/api/devices?search=x')).toBe(true);
    expect(needsBearerToken('/api/config')).toBe(false);
    expect(needsBearerToken('/api/health')).toBe(false);
    expect(needsBearerToken('/idp/token')).toBe(false);
    expect(needsBearerToken('https://elsewhere.example/api/me')).toBe(false);
  });
});

describe('createApiClient', () => {
  it('adds the bearer token and returns the body as it came', async () => {
    const { api, headers, onError } = setup(json(200, { ok: true }));
    await expect(api.get<{ ok: boolean }>('/api/me')).resolves.toEqual({ ok: true });
    expect(headers().get('Authorization')).toBe('Bearer token-1');
    expect(onError).not.toHaveBeenCalled();
  });

  it('fetches for a library with the bearer token, leaving the answer and its failures to it', async () => {
    const { api, headers, onError } = setup(json(401, { code: 'UNAUTHENTICATED', message: 'Sign in.' }));
    const res = await api.fetch('/api/contact/challenge', { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(401);
    expect(headers().get('Authorization')).toBe('Bearer token-1');
    expect(headers().get('Accept')).toBe('application/json');
    expect(onError).not.toHaveBeenCalled();
  });

  it('sends no token to excluded URLs', async () => {
    const { api, headers } = setup(json(200, {}));
    await api.get('/api/config');
    expect(headers().has('Authorization')).toBe(false);
  });

  it('sends bodies as JSON', async () => {
    const { api, fetch, headers } = setup(new Response(null, { status: 204 }));
    await expect(api.post('/api/device', { name: 'pump' })).resolves.toBeUndefined();
    expect(fetch.mock.calls[0]?.[1]?.body).toBe('{"name":"pump"}');
    expect(headers().get('Content-Type')).toBe('application/json');
  });

  it("shows the server's error message and rethrows it", async () => {
    const { api, onError } = setup(json(404, { code: 'NOT_FOUND', message: 'Device not found.' }));
    const failure = api.get('/api/device/1');
    await expect(failure).rejects.toBeInstanceOf(ApiRequestError);
    await expect(failure).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Device not found.' });
    expect(onError).toHaveBeenCalledWith('Device not found.');
  });

  it('throws but shows nothing for a quiet request (a failed download is only logged)', async () => {
    const { api, onError } = setup(json(409, { code: 'DEVICE_UNAVAILABLE', message: 'The device is offline.' }));
    await expect(api.request('/api/request-download/1?path=/x', { quiet: true })).rejects.toMatchObject({ status: 409, message: 'The device is offline.' });
    expect(onError).not.toHaveBeenCalled();
  });

  it('throws but shows nothing for an error the page handles itself, and shows the others', async () => {
    const notEmpty = setup(json(409, { code: 'FOLDER_NOT_EMPTY', message: 'The folder is not empty.' }));
    const handled = (err: ApiRequestError) => err.code === 'FOLDER_NOT_EMPTY';
    await expect(notEmpty.api.delete('/api/device/1/file?path=/x', handled)).rejects.toMatchObject({ code: 'FOLDER_NOT_EMPTY' });
    expect(notEmpty.onError).not.toHaveBeenCalled();
    const offline = setup(json(409, { code: 'DEVICE_UNAVAILABLE', message: 'The device is offline.' }));
    await expect(offline.api.delete('/api/device/1/file?path=/x', handled)).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    expect(offline.onError).toHaveBeenCalledWith('The device is offline.');
  });

  it('shows the generic message when the error has no message', async () => {
    const { api, onError } = setup(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/api/me')).rejects.toMatchObject({ status: 502, message: GENERIC_ERROR_MESSAGE });
    expect(onError).toHaveBeenCalledWith(GENERIC_ERROR_MESSAGE);
  });

  it('shows the generic message when the server cannot be reached', async () => {
    const { api, onError } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('/api/me')).rejects.toThrow('Failed to fetch');
    expect(onError).toHaveBeenCalledWith(GENERIC_ERROR_MESSAGE);
  });

  it("takes an error's fields only when each names its message, and its message only when it says something", async () => {
    const odd = setup(json(400, { code: 'BAD_REQUEST', message: 'Name is required.', fields: { name: 'Name is required.', size: 3 } }));
    await expect(odd.api.post('/api/device', {})).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Name is required.', fields: undefined });
    const named = setup(json(400, { code: 'BAD_REQUEST', message: 'Name is required.', fields: { name: 'Name is required.' } }));
    await expect(named.api.post('/api/device', {})).rejects.toMatchObject({ fields: { name: 'Name is required.' } });
    const blank = setup(json(500, { code: 'INTERNAL', message: '  ' }));
    await expect(blank.api.get('/api/me')).rejects.toMatchObject({ code: 'UNKNOWN', message: GENERIC_ERROR_MESSAGE });
    expect(blank.onError).toHaveBeenCalledWith(GENERIC_ERROR_MESSAGE);
  });
});

describe("the bootstrap's answer to the page's first question", () => {
  /** The bootstrap's question asked at `path` (first-question.ts), answered with `response`. */
  const askedAhead = (path: string, response: Response) =>
    askFirstQuestion(new URL(path, 'https://console.example'), 'token-1', [RealmRole.User], async () => response);

  it('is taken for the same question, once, and read as an answer of its own would be', async () => {
    const fetch = vi.fn(async () => json(200, { asked: 'again' }));
    const onError = vi.fn();
    const api = createApiClient({ getAccessToken: async () => 'token-1', onError, fetch, firstAnswer: askedAhead('/devices/search', json(200, { asked: 'ahead' })) });
    await expect(api.get('/api/devices?size=24')).resolves.toEqual({ asked: 'ahead' });
    expect(fetch).not.toHaveBeenCalled();
    await expect(api.get('/api/devices?size=24')).resolves.toEqual({ asked: 'again' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is not taken for another question, nor for a change', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => json(200, {}));
    const api = createApiClient({ getAccessToken: async () => 'token-1', onError: vi.fn(), fetch, firstAnswer: askedAhead('/devices/d1', json(200, { id: 'd1' })) });
    await api.get('/api/device/d2');
    await api.put('/api/device/d1', { name: 'renamed' });
    expect(fetch.mock.calls.map((call) => [call[0], call[1]?.method])).toEqual([
      ['/api/device/d2', 'GET'],
      ['/api/device/d1', 'PUT'],
    ]);
  });

  it('that is an error is told as the page would tell its own', async () => {
    const onError = vi.fn();
    const api = createApiClient({ getAccessToken: async () => 'token-1', onError, fetch: vi.fn(), firstAnswer: askedAhead('/devices/search', json(503, { code: 'UNAVAILABLE', message: 'The database is not reachable.' })) });
    await expect(api.get('/api/devices?size=24')).rejects.toBeInstanceOf(ApiRequestError);
    expect(onError).toHaveBeenCalledWith('The database is not reachable.');
  });
});
