import os from 'node:os';
import { agentEnrollResponseSchema, type AgentEnrollResponse } from '@fleetlink/contract';
import { AGENT_VERSION } from './version.js';

/** A refusal the agent cannot fix by retrying (unknown device, wrong key). */
export class EnrollmentRefused extends Error {}

/**
 * POSTs JSON with node:http(s). Not fetch: its first use loads undici with http2 and worker_threads,
 * about 10 MB an always-on agent would then carry for its whole life. This module itself is loaded
 * only when the agent has to enroll.
 */
async function postJson(url: URL, body: unknown, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
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
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer from the console within ${timeoutMs / 1000} s.`)));
    req.on('error', reject);
    req.end(data);
  });
}

export async function enroll(consoleUrl: string, deviceId: string, key: string): Promise<AgentEnrollResponse> {
  const res = await postJson(new URL('/api/agent/enroll', consoleUrl), { deviceId, key, agent: { version: AGENT_VERSION, hostname: os.hostname() } }, 30_000);
  const body = res.body as { message?: string };
  if (res.status === 400 || res.status === 403 || res.status === 404) {
    throw new EnrollmentRefused(body.message ?? `The console refused the enrollment (HTTP ${res.status}).`);
  }
  if (res.status < 200 || res.status >= 300) throw new Error(body.message ?? `Enrollment failed with HTTP ${res.status}.`);
  return agentEnrollResponseSchema.parse(body);
}
