import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOperations, type DocumentOperation } from '../testing/openapi-operations.js';
import { samplePath } from '../testing/sample-params.js';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';

interface Operation {
  'x-roles'?: string[];
  security?: Record<string, string[]>[];
}

/** The seeded accounts and the realm roles each holds. */
const ACCOUNTS = {
  'guest@fleetlink.local': [],
  'user@fleetlink.local': ['USER'],
  'admin@fleetlink.local': ['USER', 'ADMIN'],
} as Record<string, string[]>;

/**
 * The operations that need no bearer token: health and the SPA's settings, the agents' and the
 * proxy's own routes (HTTP Basic with their credentials), and one-time links that are their own
 * authorization. A new one must be added here on purpose.
 */
const PUBLIC = [
  'GET /api/health',
  'GET /api/ready',
  'GET /api/config',
  // Agents: the installation key once, then the device's id and MQTT password.
  'POST /api/agent/enroll',
  'GET /api/agent/release',
  'GET /api/agent/bundle/{name}/{version}',
  'GET /api/agent/blob/{transferId}',
  'PUT /api/agent/blob/{transferId}',
  // The tunnel proxy: a PROXY server's id and password.
  'POST /api/proxy/hello',
  'POST /api/proxy/device-login',
  'POST /api/proxy/host-known',
  'POST /api/proxy/forward',
  'POST /api/proxy/tunnel-state',
  'POST /api/proxy/revocations',
  // One-time links, handed out to a signed-in member.
  'GET /api/download/{transferId}',
  'GET /api/invoice-pdf/{linkId}',
  'GET /api/audit-export/{exportId}',
];

const ROLE_REFUSAL = /^You do not have the necessary authorization: role /;

// Path parameters are filled with well-formed values that name nothing (samplePath): the role check
// comes before any lookup, so a refusal must be the role's and an allowed call must not be refused for it.

describe('realm roles on every API route, read from the OpenAPI document', () => {
  let c: TestConsole;
  let operations: (DocumentOperation & { op: Operation })[];
  beforeAll(async () => {
    c = await startTestConsole();
    await c.signIn(...Object.keys(ACCOUNTS));
    const doc = await (await c.api('/api/docs/json')).json();
    operations = documentOperations(doc).filter(({ path }) => path.startsWith('/api/') && !path.startsWith('/api/docs'));
  }, 60_000);
  afterAll(async () => c?.close());

  it('documents the roles of every operation that needs a token, and only the listed ones need none', () => {
    expect(operations.length).toBeGreaterThan(60);
    const open = operations.filter((o) => !o.op['x-roles']).map((o) => o.key);
    expect(open.sort()).toEqual([...PUBLIC].sort());
    // The metrics routes answered a guest before this was enforced.
    for (const metrics of ['GET /api/device/{id}/metrics', 'GET /api/device/{id}/metrics/TIMELINE']) {
      expect(operations.find((o) => o.key === metrics)?.op['x-roles']).toEqual(['USER']);
    }
  });

  it('refuses each operation without a token, and to each account that lacks one of its roles, and lets the others through', async () => {
    const outcomes: string[] = [];
    for (const { key, method, path, op } of operations) {
      const roles = op['x-roles'];
      if (!roles) continue;
      const url = samplePath(path);
      const body = method === 'POST' || method === 'PUT' ? {} : undefined;
      const anonymous = await c.call(undefined, method, url, body);
      expect(anonymous.status, `${key} without a token`).toBe(401);
      for (const [who, held] of Object.entries(ACCOUNTS)) {
        const res = await c.call(who, method, url, body);
        const refusedForRole = res.status === 403 && ROLE_REFUSAL.test(res.body?.message ?? '');
        const allowed = roles.every((r) => held.includes(r));
        expect(res.status, `${key} as ${who}`).not.toBe(500);
        expect(refusedForRole, `${key} as ${who}: ${res.status} ${JSON.stringify(res.body)}`).toBe(!allowed);
        outcomes.push(`${key} ${who} ${allowed ? 'allowed' : 'refused'}`);
      }
    }
    // Every operation was tried as all three accounts.
    expect(outcomes.length).toBe(operations.filter((o) => o.op['x-roles']).length * 3);
    expect(outcomes).toContain('GET /api/device/{id}/metrics guest@fleetlink.local refused');
    expect(outcomes).toContain('GET /api/device/{id}/metrics user@fleetlink.local allowed');
    expect(outcomes).toContain('GET /api/contact/challenge guest@fleetlink.local allowed');
    expect(outcomes).toContain('GET /api/servers user@fleetlink.local refused');
  }, 120_000);

  it('answers a control character in a path parameter, a query parameter or a body field with 400 on every operation, never 500', async () => {
    const failures: string[] = [];
    for (const { key, method, path, op } of operations) {
      const who = op['x-roles'] ? 'admin@fleetlink.local' : undefined;
      const url = samplePath(path);
      const tries = [
        { where: 'query', url: `${url}?search=a%00b`, body: undefined },
        { where: 'body', url, body: method === 'POST' || method === 'PUT' ? { name: 'a\u0000b', notes: ['\u0007'] } : undefined },
        ...(url !== path ? [{ where: 'path', url: path.replace(/\{(\w+)\}/g, '%00'), body: undefined }] : []),
      ];
      for (const t of tries) {
        // An agent's blob upload is a file's bytes, which may hold anything.
        if (t.where === 'body' && (!t.body || key === 'PUT /api/agent/blob/{transferId}')) continue;
        const res = await c.call(who, method, t.url, t.body);
        if (res.status !== 400 || !/ cannot contain control characters\.$/.test(res.body?.message)) failures.push(`${key} (${t.where}): ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
