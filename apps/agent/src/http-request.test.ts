import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const server = createServer((_req, res) => res.end('ok'));
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Makes one request in a fresh Node, its request function got as `load` says; answers the status and whether undici was loaded. */
async function requestInFreshNode(load: string): Promise<{ status: number; undici: boolean }> {
  const script = `${load}
const url = new URL(process.argv[1]);
request(url, (res) => { res.resume(); res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, undici: process.moduleLoadList.some((m) => m.includes('undici')) }))); }).end();`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, url]);
  return JSON.parse(stdout);
}

// A fresh Node runs http-request.ts as it is, which needs Node's own TypeScript stripping (22.10+);
// Node 20 (where CI also runs the agent's suites) has no lazy WebSocket export in node:http anyway.
describe.skipIf(!(process.features as { typescript?: unknown }).typescript)('requestFor', () => {
  it('requests without loading undici, which an ES import of node:http loads on Node 22+', async () => {
    const helper = JSON.stringify(new URL('./http-request.ts', import.meta.url).href);
    expect(await requestInFreshNode(`import { requestFor } from ${helper}; const request = requestFor(new URL(process.argv[1]));`)).toEqual({ status: 200, undici: false });
    // What it avoids, so that this test sees the difference.
    expect(await requestInFreshNode(`const { request } = await import('node:http');`)).toEqual({ status: 200, undici: true });
  });
});
