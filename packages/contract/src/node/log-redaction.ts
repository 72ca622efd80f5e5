/**
 * What pino leaves out of every log line of the console and the proxy: the values of keys that
 * hold secrets (passwords, keys, tokens, trust stores, cookies, Authorization headers) at the top
 * of a logged object and two levels down, where request, error and message objects put them.
 */
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'newPassword',
  'key',
  'installationKey',
  'privateKey',
  'secret',
  'clientSecret',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'access_token',
  'refresh_token',
  'id_token',
  'code_verifier',
  'trustStore',
  'trustStorePassword',
  'authorization',
  'cookie',
  '["set-cookie"]',
  '["proxy-authorization"]',
];

/** `.password` one level down, `["set-cookie"]` for a key that is no identifier. */
const below = (key: string) => (key.startsWith('[') ? key : `.${key}`);

export const LOG_REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*${below(key)}`, `*.*${below(key)}`]);

export const LOG_REDACTED = '[redacted]';

/** pino's `redact` option. */
export const logRedaction = { paths: LOG_REDACT_PATHS, censor: LOG_REDACTED };

/**
 * Query parameters whose values are secrets wherever a URL is logged: blob and link tokens, OAuth
 * codes, states and ID token hints (a logout's carries the person's name and email), bearer tokens
 * passed in a URL, keys and passwords.
 */
export const SECRET_URL_PARAMETERS = ['token', 'code', 'id_token_hint', 'access_token', 'refresh_token', 'id_token', 'state', 'key', 'password', 'code_verifier'];

const SECRET_PARAMETER = new RegExp(`([?&;](?:${SECRET_URL_PARAMETERS.join('|')})=)[^&#;]*`, 'gi');

/** A URL (or path and query) as it may be logged: each secret parameter's value is [redacted], and a fragment goes. */
export const redactUrl = (url: string): string => url.replace(/#.*$/s, '').replace(SECRET_PARAMETER, `$1${LOG_REDACTED}`);
