import { tunnelSchema, tunnelStatusSchema, type Tunnel, type TunnelStatus } from '@fleetlink/contract';
import { expect } from 'vitest';
import type { TestConsole } from '../../testing/test-console.js';

/** The start call as it is answered, for a test that expects a refusal. */
export const startTunnel = (tc: TestConsole, token: string, deviceId: string, t: Tunnel) => tc.api(`/api/device/${deviceId}/tunnel/${t.id}/start`, { method: 'POST', token });

/** A tunnel registered through the API for the device, as a manager of its organization does. */
export async function createTunnel(tc: TestConsole, token: string, deviceId: string, json: object): Promise<Tunnel> {
  const res = await tc.api(`/api/device/${deviceId}/tunnel`, { method: 'POST', token, json });
  expect(res.status, await res.clone().text()).toBe(201);
  return tunnelSchema.parse(await res.json());
}

/** Connects the tunnel (its agent opens it at its proxy); answers its status. */
export async function connectTunnel(tc: TestConsole, token: string, deviceId: string, t: Tunnel): Promise<TunnelStatus> {
  const res = await startTunnel(tc, token, deviceId, t);
  expect(res.status, await res.clone().text()).toBe(200);
  return tunnelStatusSchema.parse(await res.json());
}
