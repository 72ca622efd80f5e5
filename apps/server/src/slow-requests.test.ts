import { SLOW_BODY_MESSAGE, SLOW_REQUEST_LIMITS } from '@fleetlink/contract/slow-requests';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentTestConsole } from './modules/broker/broker.test-support.js';
import { slowClient } from './testing/slow-client.test-support.js';
import type { TestConsole } from './testing/test-console.js';

/**
 * Issue 57: a client that trickles its request (a byte every few seconds) is cut, not kept for
 * minutes: headers within SLOW_REQUEST_LIMITS.headersMs, bodies at SLOW_REQUEST_LIMITS.minBytes per
 * windowMs, answered 408 where the server can still answer.
 */
describe('the API and a slow client', () => {
  let c: TestConsole;
  beforeAll(async () => {
    c = await startAgentTestConsole();
  });
  afterAll(async () => c?.close());

  it('cuts a body sent a byte at a time with 408, and headers that never end', async () => {
    const port = Number(new URL(c.url).port);
    const body = JSON.stringify({ deviceId: '00000000-0000-4000-8000-000000000000', key: 'k'.repeat(200) });
    const [slowBody, slowHeaders] = await Promise.all([
      slowClient(port, `POST /api/agent/enroll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body, 2000),
      slowClient(port, 'GET /api/health HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(100), 2000),
    ]);
    expect(slowBody.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(slowBody.answer.slice(slowBody.answer.indexOf('\r\n\r\n') + 4))).toEqual({ code: 'REQUEST_TIMEOUT', message: SLOW_BODY_MESSAGE });
    expect(slowBody.closedAfterMs).toBeGreaterThanOrEqual(SLOW_REQUEST_LIMITS.windowMs);
    expect(slowBody.closedAfterMs).toBeLessThan(SLOW_REQUEST_LIMITS.windowMs + 3 * SLOW_REQUEST_LIMITS.checkEveryMs);
    // Node answers the headers' deadline itself.
    expect(slowHeaders.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(slowHeaders.closedAfterMs).toBeLessThan(SLOW_REQUEST_LIMITS.headersMs + 3 * SLOW_REQUEST_LIMITS.checkEveryMs);
    // An ordinary request still goes through.
    expect((await c.api('/api/health')).status).toBe(200);
  }, 30_000);
});
