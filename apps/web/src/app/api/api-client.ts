import { GENERIC_ERROR_MESSAGE, toApiRequestError, type ApiRequestError } from './api-error';
import { xhrUpload, type UploadProgress } from './xhr-upload';
import type { FirstAnswer } from '../startup/first-question';

/** API paths answered without a token: they are needed before anyone has signed in. */
export const PUBLIC_API_PATHS = ['/api/config', '/api/health'];

export interface ApiClientOptions {
  /** The current access token, or nothing when signed out. Read per request so renewals apply at once. */
  getAccessToken: () => Promise<string | null | undefined>;
  /** Shows an error to the user (the alert toast). */
  onError: (message: string) => void;
  fetch?: typeof fetch;
  /** The page's first question, asked ahead by the bootstrap: its answer is taken for the same request. */
  firstAnswer?: FirstAnswer;
}

/**
 * What a call answers is typed by its caller (`api.get<Device>(…)`), from the contract's types, and
 * not checked again here: the server checks every answer against the contract's schema before it
 * sends it (its serializer), and checking it twice made every page load zod and build its schemas
 * before showing anything (issue 68). The forms still check what a person types with zod.
 */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Failures are thrown but not shown (SPEC §8: a failed download is only logged). */
  quiet?: boolean;
  /**
   * Error answers the page handles itself (a question it then asks, a notice it shows): thrown but
   * not shown in an alert (issue 59: a red toast beside the page's own answer told two stories).
   */
  handled?: (error: ApiRequestError) => boolean;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** True for same-origin API paths that must carry the bearer token. */
export function needsBearerToken(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path.startsWith('/api/') && !PUBLIC_API_PATHS.includes(path);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  return parseBody(await response.text(), response.headers.get('content-type'));
}

function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  const isJson = contentType?.includes('json');
  if (!isJson) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one way the console calls its API: adds the bearer token, parses `{ code, message }` errors,
 * shows them in the alert toast (the server's message, or a generic one) and rethrows, so callers
 * (TanStack Query) still see the failure.
 */
export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const tokenFor = async (url: string) => (needsBearerToken(url) ? await options.getAccessToken() : undefined);

  /** fetch with the bearer token; a network failure is shown (unless the call was cancelled) and rethrown. */
  async function send(url: string, init: RequestInit & { headers: Headers }, onError: (m: string) => void): Promise<Response> {
    const asked = (init.method ?? 'GET') === 'GET' ? options.firstAnswer?.take(url) : undefined;
    if (!asked) {
      const token = await tokenFor(url);
      if (token) init.headers.set('Authorization', `Bearer ${token}`);
    }
    try {
      return await (asked ?? doFetch(url, init));
    } catch (error) {
      // A cancelled query is not a failure the user needs to hear about.
      if (!init.signal?.aborted) onError(GENERIC_ERROR_MESSAGE);
      throw error;
    }
  }

  async function request<T = unknown>(url: string, { method = 'GET', body, signal, quiet, handled }: RequestOptions = {}): Promise<T> {
    const onError = quiet ? () => {} : options.onError;
    const headers = new Headers({ Accept: 'application/json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const response = await send(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }, onError);
    return answer<T>(response.status, await readBody(response), onError, handled);
  }

  function answer<T>(status: number, payload: unknown, onError: (m: string) => void, handled?: RequestOptions['handled']): T {
    if (status < 200 || status >= 300) {
      const error = toApiRequestError(status, payload);
      if (!handled?.(error)) onError(error.message);
      throw error;
    }
    return payload as T;
  }

  /** A multipart POST that reports its progress; a cancel (the signal) is not an error to show. */
  async function upload<T>(url: string, form: FormData, o: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {}): Promise<T> {
    let res: Awaited<ReturnType<typeof xhrUpload>>;
    try {
      res = await xhrUpload(url, form, { token: await tokenFor(url), signal: o.signal, onProgress: o.onProgress });
    } catch (error) {
      if (!o.signal?.aborted) options.onError(GENERIC_ERROR_MESSAGE);
      throw error;
    }
    return answer<T>(res.status, res.status === 204 ? undefined : parseBody(res.text, res.contentType), options.onError);
  }

  /** A file's bytes, for a download the page saves itself: with the bearer token, errors as for `request`. */
  async function blob(url: string, { quiet }: { quiet?: boolean } = {}): Promise<Blob> {
    const onError = quiet ? () => {} : options.onError;
    const response = await send(url, { headers: new Headers() }, onError);
    if (!response.ok) return answer<never>(response.status, await readBody(response), onError);
    return response.blob();
  }

  /**
   * A plain fetch with the bearer token, for a library that fetches for itself (the CAPTCHA
   * widget): it reads the answer, and a failure is its to show.
   */
  const authorizedFetch = (url: string, init: RequestInit = {}) => send(url, { ...init, headers: new Headers(init.headers) }, () => {});

  return {
    request,
    upload,
    blob,
    fetch: authorizedFetch,
    get: <T = unknown>(url: string, signal?: AbortSignal) => request<T>(url, { signal }),
    post: <T = unknown>(url: string, body?: unknown) => request<T>(url, { method: 'POST', body }),
    put: <T = unknown>(url: string, body?: unknown) => request<T>(url, { method: 'PUT', body }),
    delete: <T = unknown>(url: string, handled?: RequestOptions['handled']) => request<T>(url, { method: 'DELETE', handled }),
  };
}
