import os from 'node:os';
import { readAgentEnrollResponse, type AgentEnrollResponse } from '@fleetlink/contract';
import { AGENT_VERSION } from './version.js';
import { requestFor } from './http-request.js';

/** The console refused the enrollment (unknown device, wrong or used key, retired credentials). */
export class EnrollmentRefused extends Error {}

/** The console could not enroll now (it is away, busy, or its message server is); worth retrying. */
export class EnrollmentFailed extends Error {
  constructor(
    message: string,
    /** How long the console asked to wait (429 Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** What proves the agent is the device: the installation key, its own MQTT password, or both. */
export interface EnrollmentProof {
  key?: string;
  password?: string;
}

/**
 * POSTs JSON with node:http(s), loaded as http-request.ts says. Not fetch: its first use loads
 * undici with http2 and worker_threads, about 10 MB an always-on agent would then carry for its
 * whole life. This module itself is loaded only when the agent has to enroll.
 */
async function postJson(url: URL, body: unknown, timeoutMs: number): Promise<{ status: number; body: unknown; retryAfter?: string }> {
  const request = requestFor(url);
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': data.length, accept: 'application/json' }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // An enrollment answer is a few KB; anything huge is not our console.
          if (size > 1 << 20) req.destroy(new Error('The enrollment answer is too large.'));
          else chunks.push(c);
        });
        res.on('end', () => {
          let parsed: unknown = {};
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // Not JSON (a proxy's error page): the status says enough.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, retryAfter: res.headers['retry-after'] });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer from the console within ${timeoutMs / 1000} s.`)));
    req.on('error', reject);
    req.end(data);
  });
}

export async function enroll(consoleUrl: string, deviceId: string, proof: EnrollmentProof): Promise<AgentEnrollResponse> {
  let res: Awaited<ReturnType<typeof postJson>>;
  try {
    res = await postJson(new URL('/api/agent/enroll', consoleUrl), { deviceId, ...proof, agent: { version: AGENT_VERSION, hostname: os.hostname() } }, 30_000);
  } catch (err) {
    throw new EnrollmentFailed((err as Error).message);
  }
  const body = res.body as { message?: string };
  if (res.status === 400 || res.status === 403 || res.status === 404) {
    throw new EnrollmentRefused(body.message ?? `The console refused the enrollment (HTTP ${res.status}).`);
  }
  if (res.status < 200 || res.status >= 300) {
    const seconds = Number(res.retryAfter);
    throw new EnrollmentFailed(body.message ?? `Enrollment failed with HTTP ${res.status}.`, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined);
  }
  return readAgentEnrollResponse(body);
}
