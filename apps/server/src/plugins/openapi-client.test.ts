import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';

const REPO = path.resolve(import.meta.dirname, '../../../..');
const CLIENT = path.join(import.meta.dirname, '../testing/openapi-client/client.ts');

/** Calls an API user could get wrong, one per line, each of which the generated types must refuse. */
const MISUSES = [
  // A status the search does not have.
  `void client.GET('/api/devices', { params: { query: { status: 'sleeping' } } });`,
  // A device without its organization.
  `void client.POST('/api/device', { body: { name: 'x', branch: 'PRODUCTION' } });`,
  // A device path without its id.
  `void client.GET('/api/device/{id}', { params: { path: {} } });`,
  // A field an error answer does not have.
  `void client.GET('/api/me').then(({ error }) => error?.stack);`,
];
const MISUSE_HEADER = [`import createClient from 'openapi-fetch';`, `import type { paths } from './api-types';`, `const client = createClient<paths>({ baseUrl: 'http://localhost' });`];

let c: TestConsole;
let dir: string;

/** The type errors of a file, as `line: message` (lines counted from 1). */
function typecheck(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

beforeAll(async () => {
  c = await startTestConsole();
  // Inside the repository, so that the client's `openapi-fetch` resolves from its node_modules.
  mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  dir = mkdtempSync(path.join(REPO, '.tmp', 'openapi-client-'));
  const doc = await (await c.api('/api/docs/json')).json();
  writeFileSync(path.join(dir, 'api-types.ts'), astToString(await openapiTS(doc)));
  copyFileSync(CLIENT, path.join(dir, 'client.ts'));
  writeFileSync(path.join(dir, 'misuse.ts'), [...MISUSE_HEADER, ...MISUSES].join('\n'));
}, 60_000);
afterAll(async () => {
  await c?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  it('typechecks, errors included', () => {
    expect(typecheck(path.join(dir, 'client.ts'))).toEqual([]);
  }, 60_000);

  it('refuses, by its types, the calls the API would refuse', () => {
    const errors = typecheck(path.join(dir, 'misuse.ts'));
    // One error on each misuse's line, none elsewhere.
    expect(errors.map((e) => Number(e.split(':')[0]) - MISUSE_HEADER.length)).toEqual([1, 2, 3, 4]);
    expect(errors[0]).toContain(`Type '"sleeping"' is not assignable to type '"online" | "offline" | undefined'`);
    expect(errors[1]).toContain(`Property 'organization' is missing`);
    expect(errors[2]).toContain(`Property 'id' is missing`);
    expect(errors[3]).toContain(`Property 'stack' does not exist on type '{ code: string; message: string;`);
  }, 60_000);

  it('works against the running console: answers typed as they arrive, errors as { code, message }', async () => {
    const { fleetlinkClient } = (await import(path.join(dir, 'client.ts'))) as {
      // Its own types are the generated ones, checked above; the project's typecheck cannot see them.
      fleetlinkClient: (baseUrl: string, token: string) => any;
    };
    const api = fleetlinkClient(c.url, await c.token('user@fleetlink.local'));
    expect(await api.health()).toBe('ok');

    const [organization] = await api.myOrganizationIds();
    const created = await api.registerDevice(organization, 'Typed client');
    expect(created.error).toBeUndefined();
    const read = await api.device(created.device!.id);
    expect(read.device).toMatchObject({ name: 'Typed client', tags: ['openapi'], organization: { id: organization } });
    expect((await api.search('Typed', 'offline')).devices.map((d: { name: string }) => d.name)).toEqual(['Typed client']);

    expect(await api.registerDevice(organization, '')).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'Name is required.', fields: { name: 'Name is required.' } },
    });
    expect((await api.device('5d0f0c1e-0000-4000-8000-000000000000')).error).toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);
});
