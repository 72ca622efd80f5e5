import { describe, expect, it } from 'vitest';
import type { HubConnection } from './hub-connection.js';
import { MessageHub } from './message-hub.js';

const quietLog = { info() {}, warn() {}, error() {} };

describe('MessageHub.request', () => {
  it('answers "did not answer in time" when the broker never acknowledges the publish, leaving nothing unhandled', async () => {
    // A stalled broker: the publish neither completes nor fails.
    const stalled = { publish: () => new Promise<void>(() => {}) } as unknown as HubConnection;
    const hub = new MessageHub({ servers: {} as never, log: quietLog as never });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(hub.request('d1', 'ping', {}, { timeoutMs: 50, via: stalled })).rejects.toThrow('The device did not answer in time.');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('answers "could not be sent" when the publish fails', async () => {
    const failing = { publish: () => Promise.reject(new Error('connection closed')) } as unknown as HubConnection;
    const hub = new MessageHub({ servers: {} as never, log: quietLog as never });
    await expect(hub.request('d1', 'ping', {}, { timeoutMs: 1000, via: failing })).rejects.toThrow(
      'The request could not be sent: connection closed',
    );
  });
});
