import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tunnelSchema, tunnelStatusSchema } from '@fleetlink/contract';
import { ADMIN_EMAIL, embeddedSetup, memberDevice, runAgentOnline, type AgentProcess, type MessagingSetup } from '../apps/server/src/modules/broker/broker.test-support.js';
import { freePort } from '../apps/server/src/testing/test-console.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** bench/tunnel-ends.ts as a child process, asked one thing at a time. */
export function startEnds(): { ask<T>(m: object): Promise<T>; child: ChildProcess } {
  const child = fork(path.join(here, 'tunnel-ends.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (m: { id: number; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(new Error(m.error));
    else w?.resolve(m);
  });
  return {
    child,
    ask: <T>(m: object) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ ...m, id });
      }),
  };
}

/** The console with its built-in proxy, a device with its real agent, and a connected tunnel to `port` on it. */
export async function fleetlinkTunnel(o: { type: 'TCP' | 'HTTP'; port: number }): Promise<{ s: MessagingSetup; mapping: string; agent: AgentProcess; close(): Promise<void> }> {
  const tcp = await freePort();
  const s = await embeddedSetup({ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(await freePort()), TUNNEL_TCP_PORTS: `${tcp}-${tcp + 9}` });
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const device = await memberDevice(s.tc.database.db, 'bench tunnel');
  const agent = await runAgentOnline(s.tc, device, cleanup);
  const token = await s.tc.token(ADMIN_EMAIL);
  const base = `/api/device/${device.id}/tunnel`;
  const tunnel = tunnelSchema.parse(await (await s.tc.api(base, { method: 'POST', token, json: { type: o.type, port: o.port, path: 'bench' } })).json());
  const status = tunnelStatusSchema.parse(await (await s.tc.api(`${base}/${tunnel.id}/start`, { method: 'POST', token })).json());
  return {
    s,
    agent,
    mapping: status.mapping!,
    async close() {
      await agent.kill('SIGTERM');
      await s.tc.close();
    },
  };
}
