import { connect } from 'node:net';
import { SLOW_BODY_MESSAGE, SLOW_REQUEST_LIMITS } from '@fleetlink/contract/slow-requests';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/test-console.js';
import { embeddedSetup, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { slowClient } from '../../testing/slow-client.test-support.js';
import { startLocalService, type LocalService } from './local-service.test-support.js';
import { connectTunnel, createTunnel } from './tunnel-api.test-support.js';

const HOST = 'framed.localhost';
/** A whole second request, as a smuggler hides it in a body. */
const SMUGGLED = `GET /SMUGGLED HTTP/1.1\r\nHost: ${HOST}\r\nX-Forwarded-For: 6.6.6.6\r\n\r\n`;
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

/**
 * Issue 57: the ingress passes each request to the device framed, whatever its method and however
 * its body is encoded, so that the device's service reads exactly the requests clients sent, each
 * with the proxy's headers; a channel (shared by a tunnel's visitors) never carries a second request
 * hidden in a first one's body. The service records what it reads.
 */
describe('the ingress framing', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let service: LocalService;
  let httpPort: number;

  /** Bytes written as they are, on a connection of their own; what came back within a moment. */
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      let out = '';
      const socket = connect(httpPort, '127.0.0.1', () => socket.write(text));
      const done = () => (socket.destroy(), resolve(out));
      socket.on('data', (d) => (out += d));
      socket.on('close', done);
      socket.on('error', done);
      setTimeout(done, 1500).unref();
    });
  const head = (method: string, path: string, extra = '') => `${method} ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${extra}`;
  /** What the device's service read since the test began: method and path, and the address the proxy said. */
  const seen = () => service.seen.map((r) => ({ request: `${r.method} ${r.url}`, forwardedFor: r.headers['x-forwarded-for'], bodyBytes: r.bodyBytes }));
  /** A visitor after the smuggler, on a connection of its own: it must get its own answer. */
  const nextVisitor = async () => {
    const answer = await raw(head('GET', '/echo/next-visitor', 'Connection: close\r\n\r\n'));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"url":"/echo/next-visitor"');
  };

  beforeAll(async () => {
    httpPort = await freePort();
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(httpPort) });
    service = await startLocalService();
    const { admin, device } = await onlineMemberDevice(s, 'framed', { agents, dirs });
    await connectTunnel(s.tc, admin, device.id, await createTunnel(s.tc, admin, device.id, { port: service.port, path: 'framed' }));
    await waitFor(async () => (await raw(head('GET', '/', 'Connection: close\r\n\r\n'))).startsWith('HTTP/1.1 200') || undefined, 5000, 'the tunnel served');
  });
  beforeEach(() => {
    service.seen.length = 0;
  });
  afterAll(async () => {
    await service?.close();
    await tearDown(s, { agents, dirs });
  });

  it.each(['GET', 'DELETE', 'OPTIONS', 'HEAD', 'POST'])('forwards a chunked %s body chunked: a request in it stays its body', async (method) => {
    const answer = await raw(head(method, '/first', 'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n') + chunked(SMUGGLED));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    await nextVisitor();
    expect(seen()).toEqual([
      { request: `${method} /first`, forwardedFor: '127.0.0.1', bodyBytes: SMUGGLED.length },
      { request: 'GET /echo/next-visitor', forwardedFor: '127.0.0.1', bodyBytes: 0 },
    ]);
  });

  it.each(['GET', 'DELETE', 'OPTIONS'])('forwards a %s body with its length', async (method) => {
    await raw(head(method, '/first', `Content-Length: ${SMUGGLED.length}\r\nConnection: close\r\n\r\n`) + SMUGGLED);
    await nextVisitor();
    expect(seen().map((r) => r.request)).toEqual([`${method} /first`, 'GET /echo/next-visitor']);
    expect(seen()[0]!.bodyBytes).toBe(SMUGGLED.length);
  });

  it.each([
    ['CL.TE', `Content-Length: ${chunked(SMUGGLED).length}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(SMUGGLED)}`],
    ['TE.CL', `Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${chunked(SMUGGLED)}`],
    ['TE.TE, a second coding', `Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n${chunked(SMUGGLED)}`],
    ['TE.TE, a space before the colon', `Transfer-Encoding : chunked\r\n\r\n${chunked(SMUGGLED)}`],
    ['TE.TE, an unknown coding', `Transfer-Encoding: xchunked\r\n\r\n${SMUGGLED}`],
    ['TE.TE, a tab for a space', `Transfer-Encoding:\tchunked\r\nContent-Length: 3\r\n\r\n${chunked(SMUGGLED)}`],
    ['TE.TE, a line folded', `Transfer-Encoding: identity\r\n chunked\r\n\r\n${chunked(SMUGGLED)}`],
  ])('refuses %s with 400 before anything reaches the device', async (_name, rest) => {
    const answer = await raw(head('POST', '/first', rest));
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    await nextVisitor();
    expect(seen().map((r) => r.request)).toEqual(['GET /echo/next-visitor']);
  });

  it('passes pipelined requests each as its own, with the proxy headers, and answers them in order', async () => {
    const answer = await raw(head('GET', '/echo/one', '\r\n') + head('GET', '/echo/two', 'X-Forwarded-For: 6.6.6.6\r\n\r\n') + head('GET', '/echo/three', 'Connection: close\r\n\r\n'));
    expect(answer.match(/HTTP\/1\.1 200/g)).toHaveLength(3);
    // Each answer is its own request's, in the order asked.
    expect([...answer.matchAll(/"url":"(\/echo\/\w+)"/g)].map((m) => m[1])).toEqual(['/echo/one', '/echo/two', '/echo/three']);
    // The ingress passes them on at once (on channels of their own), so the device may read them in any order.
    const byUrl = (a: { request: string }, b: { request: string }) => a.request.localeCompare(b.request);
    expect(seen().sort(byUrl)).toEqual(['/echo/one', '/echo/three', '/echo/two'].map((url) => ({ request: `GET ${url}`, forwardedFor: '127.0.0.1', bodyBytes: 0 })));
  });

  it('closes a channel whose answer came before the request body was all sent, instead of leaving it half used', async () => {
    // The client says 100 bytes, sends 10, reads the device's early answer and goes away: the rest
    // of that body never comes, so the channel can carry nothing else and must not stay open.
    const early = connect(httpPort, '127.0.0.1', () => early.write(head('POST', '/early', 'Content-Length: 100\r\n\r\n') + '0123456789'));
    early.on('error', () => {});
    const answer = await new Promise<string>((resolve) => early.once('data', (d) => resolve(d.toString())));
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    early.destroy();
    const closed = await Promise.race([service.seen[0]!.connectionClosed.then(() => true), new Promise((r) => setTimeout(() => r(false), 2000))]);
    expect(closed, "the device's connection that carried the half-sent request").toBe(true);
    await nextVisitor();
  });

  it('cuts a visitor that sends its body a byte at a time with 408, and nothing of it reaches the device', async () => {
    const body = 'x'.repeat(100);
    const slow = await slowClient(httpPort, head('POST', '/upload', `Content-Length: ${body.length}\r\n\r\n`), body, 2000);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.answer).toContain(SLOW_BODY_MESSAGE);
    expect(slow.closedAfterMs).toBeLessThan(SLOW_REQUEST_LIMITS.windowMs + 3 * SLOW_REQUEST_LIMITS.checkEveryMs);
    expect(seen()).toEqual([]);
    await nextVisitor();
  }, 30_000);
});
