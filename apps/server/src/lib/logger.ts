import { logRedaction } from '@fleetlink/contract/log-redaction';
import type { LoggerOptions } from 'pino';
import { errorForLog, requestForLog } from './log-serializers.js';

/**
 * Options of every logger of the console (its HTTP server, messaging, the built-in proxy): secrets
 * are redacted by key, requests logged without URL tokens, errors without their query's values.
 */
export const loggerOptions = (level: string, name?: string): LoggerOptions => ({
  level,
  ...(name ? { name } : {}),
  redact: logRedaction,
  serializers: { req: requestForLog, err: errorForLog },
});
