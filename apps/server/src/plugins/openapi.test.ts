import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { apiOperations } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOperations, type DocumentOperation } from '../testing/openapi-operations.js';
import { samplePath } from '../testing/sample-params.js';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';
import { API_ERROR_REF } from './openapi-document.js';

const REPO = path.resolve(import.meta.dirname, '../../../..');

type Operation = DocumentOperation['op'];
let c: TestConsole;
let doc: Record<string, any>;
let operations: DocumentOperation[];

beforeAll(async () => {
  c = await startTestConsole();
  doc = await (await c.api('/api/docs/json')).json();
  operations = documentOperations(doc as { paths: Record<string, Record<string, unknown>> });
}, 60_000);
afterAll(async () => c?.close());

const byKey = (key: string) => operations.find((o) => o.key === key)!.op;
const errorStatuses = (op: Operation) => Object.keys(op.responses).filter((s) => Number(s) >= 400);

describe('the OpenAPI document at /api/docs/json', () => {
  it('is valid OpenAPI for swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes redocly lint with the recommended rules and the checked-in redocly.yaml: no error, no warning', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = await promisify(execFile)(path.join(REPO, 'node_modules/.bin/redocly'), ['lint', file, '--config', path.join(REPO, 'redocly.yaml'), '--format', 'json'], {
        cwd: REPO,
        // Offline, as CI is: no usage report, no look for a newer version.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
      }).catch((err: { stdout: string; stderr: string }) => err);
      const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
      const problems = report.problems.map((p: { severity: string; ruleId: string; message: string; location: { pointer: string }[] }) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('holds the API only: not the provider’s routes, the SPA or robots.txt', () => {
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
    expect(doc.servers).toEqual([{ url: c.env.PUBLIC_URL, description: 'This console' }]);
  });

  it('names each operation by the contract’s route table, and the table has no route the API does not serve', () => {
    const table = apiOperations();
    expect(operations.map((o) => o.key).sort()).toEqual(table.map((r) => `${r.method} ${r.path}`).sort());
    for (const { key, op } of operations) expect(op.operationId, key).toBe(table.find((r) => `${r.method} ${r.path}` === key)!.operationId);
    expect(new Set(table.map((r) => r.operationId)).size).toBe(table.length);
    expect(byKey('GET /api/devices').operationId).toBe('devicesSearch');
    expect(byKey('POST /api/organization/{id}/domain').operationId).toBe('organizationsAddDomain');
    expect(byKey('DELETE /api/device/{id}/tunnel/{tunnelId}').operationId).toBe('tunnelsRemove');
  });

  it('gives every operation a summary, its tags and its security', () => {
    const missing = operations.flatMap(({ key, op }) => [
      ...(op.summary ? [] : [`${key}: summary`]),
      ...(op.tags?.length ? [] : [`${key}: tags`]),
      ...(Array.isArray(op.security) ? [] : [`${key}: security`]),
    ]);
    expect(missing).toEqual([]);
    expect(byKey('GET /api/health').security).toEqual([]);
    expect(byKey('GET /api/devices').security).toEqual([{ bearer: [] }, { apiToken: [] }]);
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'flt_…' });
    expect(byKey('POST /api/proxy/forward').security).toEqual([{ proxyBasic: [] }]);
    expect(byKey('GET /api/agent/blob/{transferId}').security).toEqual([{ deviceBasic: [] }]);
    expect(byKey('GET /api/download/{transferId}').security).toEqual([]);
  });

  it('documents each operation’s error answers, as they apply, with the { code, message } schema', () => {
    expect(doc.components.schemas.ApiError).toMatchObject({ type: 'object', required: ['code', 'message'] });
    for (const { key, op } of operations) {
      expect(errorStatuses(op).length, key).toBeGreaterThan(0);
      for (const status of errorStatuses(op)) expect(op.responses[status].content['application/json'].schema, `${key} ${status}`).toEqual({ $ref: API_ERROR_REF });
    }
    // From the operation's shape: security, path parameters, a body.
    expect(errorStatuses(byKey('GET /api/health'))).toEqual(['400']);
    // Every operation a person calls answers 429 past an API token's rate limit, and 403 to a
    // read-only token where it is not a read.
    expect(errorStatuses(byKey('GET /api/me'))).toEqual(['400', '401', '429']);
    expect(errorStatuses(byKey('POST /api/api-tokens'))).toEqual(['400', '401', '403', '409', '413', '415', '429']);
    expect(errorStatuses(byKey('GET /api/devices'))).toEqual(['400', '401', '403', '429']);
    expect(errorStatuses(byKey('PUT /api/device/{id}'))).toEqual(['400', '401', '403', '404', '413', '415', '429']);
    // Declared by the route table: conflicts, rate limits, one-time links, device calls.
    expect(errorStatuses(byKey('POST /api/organization/{id}/domain'))).toEqual(['400', '401', '403', '404', '409', '413', '415', '429']);
    expect(errorStatuses(byKey('POST /api/contact'))).toEqual(['400', '401', '403', '413', '415', '429']);
    expect(errorStatuses(byKey('GET /api/download/{transferId}'))).toEqual(['400', '410']);
    expect(errorStatuses(byKey('PUT /api/agent/blob/{transferId}'))).toEqual(['400', '401', '403', '411']);
    expect(errorStatuses(byKey('POST /api/device/{id}/command'))).toEqual(['400', '401', '403', '404', '409', '413', '415', '429', '502', '503', '504']);
    expect(errorStatuses(byKey('POST /api/bundle'))).toEqual(['400', '401', '403', '409', '413', '415', '429']);
  });

  it('answers a wrong call only with an error status its operation documents', async () => {
    // Without credentials, and as admin@ with ids that name nothing and an empty body, or a body of text.
    const admin = await c.token('admin@fleetlink.local');
    const undocumented: string[] = [];
    for (const { key, method, path: openapiPath, op } of operations) {
      const url = samplePath(openapiPath);
      const withBody = method === 'POST' || method === 'PUT';
      const calls = [
        c.api(url, { method, json: withBody ? {} : undefined }),
        c.api(url, { method, token: admin, json: withBody ? {} : undefined }),
        ...(withBody ? [c.api(url, { method, token: admin, headers: { 'content-type': 'text/plain' }, body: 'text' })] : []),
      ];
      for (const res of await Promise.all(calls)) {
        if (res.status >= 400 && !op.responses[res.status]) undocumented.push(`${key}: ${res.status} ${(await res.text()).slice(0, 120)}`);
      }
    }
    expect(undocumented).toEqual([]);
  }, 120_000);

  it('writes nullable beside a type, as OpenAPI 3.0 reads it', () => {
    const organization = byKey('POST /api/server').requestBody.content['application/json'].schema.properties.organization;
    expect(organization).toMatchObject({ type: 'string', nullable: true });
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.nullable === true && n.type === undefined) untyped.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(untyped).toEqual([]);
  });
});
