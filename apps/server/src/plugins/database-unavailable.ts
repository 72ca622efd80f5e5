/**
 * Whether an error says the database cannot be reached right now (issue 67): refused or dropped
 * connections, a server shutting down or starting up, a pool that could not get a connection in
 * time. A request that meets one is answered 503 "try again" rather than the 500 of a bug: during a
 * database restart or failover nothing the caller did was wrong, and a moment later it works.
 * Drizzle wraps the driver's error as its `cause`, so the chain is followed.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, crash recovery, starting up), and 53300 (too many connections). */
const SQLSTATE = /^(08\d{3}|57P0[1-4]|53300)$/;
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable right now: try again in a moment.';
