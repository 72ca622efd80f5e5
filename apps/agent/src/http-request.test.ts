import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonFromFreshNode, STRIPS_TYPESCRIPT } from './fresh-node.test-support.js';

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
  return jsonFromFreshNode(script, { args: [url] });
}

// A fresh Node runs http-request.ts as it is; Node 20, which cannot, has no lazy WebSocket export
// in node:http anyway.
describe.skipIf(!STRIPS_TYPESCRIPT)('requestFor', () => {
  it('requests without loading undici, which an ES import of node:http loads on Node 22+', async () => {
    const helper = JSON.stringify(new URL('./http-request.ts', import.meta.url).href);
    expect(await requestInFreshNode(`import { requestFor } from ${helper}; const request = requestFor(new URL(process.argv[1]));`)).toEqual({ status: 200, undici: false });
    // What it avoids, so that this test sees the difference.
    expect(await requestInFreshNode(`const { request } = await import('node:http');`)).toEqual({ status: 200, undici: true });
  });
});
