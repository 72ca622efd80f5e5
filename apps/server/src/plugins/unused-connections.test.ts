import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestConsole } from '../testing/test-console.js';

it('closes at once with a connection open that never carried a request (a client pool opening one ahead)', async () => {
  const tc = await startTestConsole();
  const socket = connect(Number(new URL(tc.url).port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const t0 = Date.now();
  await tc.close();
  expect(Date.now() - t0).toBeLessThan(5_000);
  await closed;
}, 60_000);
