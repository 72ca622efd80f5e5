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
