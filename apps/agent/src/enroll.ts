import os from 'node:os';
import { agentEnrollResponseSchema, type AgentEnrollResponse } from '@fleetlink/contract';
import { AGENT_VERSION } from './version.js';

/** A refusal the agent cannot fix by retrying (unknown device, wrong key). */
export class EnrollmentRefused extends Error {}

export async function enroll(consoleUrl: string, deviceId: string, key: string): Promise<AgentEnrollResponse> {
  const res = await fetch(new URL('/api/agent/enroll', consoleUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId, key, agent: { version: AGENT_VERSION, hostname: os.hostname() } }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (res.status === 400 || res.status === 403 || res.status === 404) {
    throw new EnrollmentRefused(body.message ?? `The console refused the enrollment (HTTP ${res.status}).`);
  }
  if (!res.ok) throw new Error(body.message ?? `Enrollment failed with HTTP ${res.status}.`);
  return agentEnrollResponseSchema.parse(body);
}
