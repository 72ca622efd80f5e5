import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { LiveClose, liveMessageSchema, type LiveMessage } from '@fleetlink/contract';
import { UnsecuredJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { InvalidTokenError } from '../../auth/token-verifier.js';
import { LocalNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/client.js';
import { LiveBus, type BusChange } from './live-bus.js';
import { LIVE_API_TOKEN_CHECK_MS, LIVE_BUFFER_MAX, LIVE_PENDING_MAX, LIVE_SEND_INTERVAL_MS, LiveStream } from './live-stream.js';

const MINE = randomUUID();
const OTHER = randomUUID();

/**
 * The socket stands in for `ws`'s (a library, tested on its own; live.test.ts runs the real one):
 * what the stream wrote, how full its buffer is, how it was closed.
 */
class SocketDouble extends EventEmitter {
  sent: LiveMessage[] = [];
  bufferedAmount = 0;
  closedWith?: { code: number; reason: string };
  send(data: string) {
    this.sent.push(liveMessageSchema.parse(JSON.parse(data)));
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
    this.emit('close');
  }
}

describe('a live stream under load', () => {
  let bus: LiveBus;
  let socket: SocketDouble;
  let orgs: string[];

  beforeEach(async () => {
    vi.useFakeTimers();
    // Every change below names its organization: the bus reads none from the database.
    bus = new LiveBus({ db: undefined as unknown as Db, notices: new LocalNotices(), log: { warn: () => {} } });
    socket = new SocketDouble();
    orgs = [MINE];
    const authenticate = async () => ({ subject: 's', sessionId: null, username: 'user@fleetlink.local', name: null, email: null, roles: ['USER'], realmRoles: ['USER'], clientRoles: {} });
    new LiveStream(socket as unknown as WebSocket, { authenticate, address: '127.0.0.1', organizationsOf: async () => orgs, bus, log: { info: () => {}, debug: () => {} } });
    const token = new UnsecuredJWT({ sub: 's' }).setExpirationTime('1h').encode();
    socket.emit('message', JSON.stringify({ token }));
    await vi.waitFor(() => expect(socket.sent.map((m) => m.type)).toEqual(['ready']));
  });
  afterEach(() => {
    bus.close();
    vi.useRealTimers();
  });

  /** What the bus hands its streams after a flush (as it does with another console's notices). */
  const deliver = (c: BusChange[]) => (bus as unknown as { sinks: Set<{ devices(c: BusChange[]): void }> }).sinks.forEach((s) => s.devices(c));
  const changes = (n: number, org = MINE, parts: BusChange['parts'] = ['state']): BusChange[] =>
    Array.from({ length: n }, (_, i) => ({ id: `device-${i}`, org, online: i % 2 === 0, parts }));

  it('merges what one device did meanwhile into one entry, and leaves out other organizations', async () => {
    for (const parts of [['state'], ['reported'], ['metrics']] as const) deliver([...changes(150, MINE, [...parts]), ...changes(5, OTHER)]);
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS);
    const sent = socket.sent.slice(1);
    expect(sent).toHaveLength(1);
    const message = sent[0]!;
    expect(message.type === 'devices' && message.changes).toHaveLength(150);
    expect(message.type === 'devices' && message.changes[0]).toEqual({ id: 'device-0', online: true, parts: ['state', 'reported', 'metrics'] });
  });

  it('sends a fleet that changes all at once as a few messages a second, asking the page to read again', async () => {
    // 10,000 devices changing within 2 s, in bursts as the bus hands them over.
    for (let t = 0; t < 2000; t += 100) {
      deliver(changes(500).map((c) => ({ ...c, id: `${c.id}-${t}` })));
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(1000);
    const sent = socket.sent.slice(1);
    // At most one message per LIVE_SEND_INTERVAL_MS over the 3 s, each small.
    expect(sent.length).toBeLessThanOrEqual(3000 / LIVE_SEND_INTERVAL_MS + 1);
    expect(new Set(sent.map((m) => m.type))).toEqual(new Set(['resync']));
    expect(socket.closedWith).toBeUndefined();
  });

  it('lists up to LIVE_PENDING_MAX devices, and past it asks for a read instead', async () => {
    deliver(changes(LIVE_PENDING_MAX));
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS);
    deliver(changes(LIVE_PENDING_MAX + 1));
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS);
    expect(socket.sent.slice(1).map((m) => (m.type === 'devices' ? m.changes.length : m.type))).toEqual([LIVE_PENDING_MAX, 'resync']);
  });

  it('closes the stream of a browser that does not read, instead of keeping its events', async () => {
    socket.bufferedAmount = LIVE_BUFFER_MAX + 1;
    deliver(changes(3));
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS);
    expect(socket.closedWith).toEqual({ code: LiveClose.TooSlow, reason: 'Too many events waited to be read.' });
    expect(socket.sent).toHaveLength(1);
    // Gone from the bus: nothing is kept for it any more.
    expect(bus.streams).toBe(0);
  });

  it('stops at once telling a member removed from an organization, and reads their organizations again', async () => {
    deliver(changes(2));
    orgs = [];
    bus.access(MINE, 'user@fleetlink.local');
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS);
    deliver(changes(2));
    await vi.advanceTimersByTimeAsync(LIVE_SEND_INTERVAL_MS * 2);
    // The changes waiting when access changed were dropped with it; the page reads again.
    expect(socket.sent.slice(1).map((m) => m.type)).toEqual(['resync']);
  });

  it("closes a new stream, without crashing anything, when the person's organizations cannot be read", async () => {
    const failing = new SocketDouble();
    const authenticate = async () => ({ subject: 's', sessionId: null, username: 'u', name: null, email: null, roles: [], realmRoles: [], clientRoles: {} });
    const organizationsOf = () => Promise.reject(new Error('the database is away'));
    new LiveStream(failing as unknown as WebSocket, { authenticate, address: '127.0.0.1', organizationsOf, bus, log: { info: () => {}, debug: () => {} } });
    failing.emit('message', JSON.stringify({ token: new UnsecuredJWT({ sub: 's' }).setExpirationTime('1h').encode() }));
    await vi.waitFor(() => expect(failing.closedWith).toEqual({ code: LiveClose.GoingAway, reason: 'Your access could not be checked.' }));
    expect(failing.sent).toEqual([]);
    expect(bus.streams).toBe(1);
  });

  it('checks a personal API token every minute, and closes with the reason once it stops working; a limited one hears no servers', async () => {
    const opened = new SocketDouble();
    let revoked = false;
    const authenticate = async () => {
      if (revoked) throw new InvalidTokenError('This API token was revoked on 2026-11-27: create a new one under API tokens in your profile.');
      return {
        subject: 's',
        sessionId: null,
        username: 'admin@fleetlink.local',
        name: null,
        email: null,
        roles: ['USER', 'ADMIN'],
        realmRoles: ['USER', 'ADMIN'],
        clientRoles: {},
        organizationLimit: [MINE],
        apiToken: { id: 't', name: 'script', scope: 'READ' as const },
      };
    };
    new LiveStream(opened as unknown as WebSocket, { authenticate, address: '127.0.0.1', organizationsOf: async () => [MINE], bus, log: { info: () => {}, debug: () => {} } });
    opened.emit('message', JSON.stringify({ token: `flt_${'A'.repeat(43)}` }));
    await vi.waitFor(() => expect(opened.sent).toEqual([{ type: 'ready', expiresAt: null }]));
    bus.servers();
    await vi.advanceTimersByTimeAsync(LIVE_API_TOKEN_CHECK_MS);
    // Still working after a minute; a realm ADMIN's token limited to organizations is not told of servers.
    expect(opened.closedWith).toBeUndefined();
    expect(opened.sent.map((m) => m.type)).toEqual(['ready']);
    revoked = true;
    await vi.advanceTimersByTimeAsync(LIVE_API_TOKEN_CHECK_MS);
    expect(opened.closedWith).toEqual({
      code: LiveClose.Unauthorized,
      reason: 'This API token was revoked on 2026-11-27: create a new one under API tokens in your profile.',
    });
  });
});
