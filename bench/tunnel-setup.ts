import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverSchema, tunnelSchema, tunnelStatusSchema } from '@fleetlink/contract';
import { ADMIN_EMAIL, embeddedSetup, memberDevice, runAgentOnline, tearDown, tempDir, type AgentProcess, type MessagingSetup } from '../apps/server/src/modules/broker/broker.test-support.js';
import { hostKeyFile, startStandaloneProxy, type StandaloneProxy } from '../apps/server/src/modules/tunnels/standalone-proxy.test-support.js';
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

/**
 * The console with its built-in proxy (or, `standalone`, without one and a `fleetlink-proxy` process
 * registered beside it), a device with its real agent, and a connected tunnel to `port` on it.
 */
export async function fleetlinkTunnel(o: { type: 'TCP' | 'HTTP'; port: number; standalone?: boolean }): Promise<{
  s: MessagingSetup;
  mapping: string;
  agent: AgentProcess;
  /** The standalone proxy's process, when there is one. */
  proxyPid?: number;
  close(): Promise<void>;
}> {
  const tcp = await freePort();
  const ports = { TUNNEL_SSH_PORT: String(o.standalone ? 0 : await freePort()), TUNNEL_HTTP_PORT: String(await freePort()), TUNNEL_TCP_PORTS: `${tcp}-${tcp + 9}` };
  const s = await embeddedSetup(ports);
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const token = await s.tc.token(ADMIN_EMAIL);
  // Registered before the device enrolls: enrollment gives it the least loaded ONLINE proxy, this one.
  const proxy = o.standalone ? await standaloneProxy(s, token, cleanup.dirs, { http: Number(ports.TUNNEL_HTTP_PORT), tcp: ports.TUNNEL_TCP_PORTS }) : undefined;
  const device = await memberDevice(s.tc.database.db, 'bench tunnel');
  const agent = await runAgentOnline(s.tc, device, cleanup);
  const base = `/api/device/${device.id}/tunnel`;
  const tunnel = tunnelSchema.parse(await (await s.tc.api(base, { method: 'POST', token, json: { type: o.type, port: o.port, path: 'bench' } })).json());
  const status = tunnelStatusSchema.parse(await (await s.tc.api(`${base}/${tunnel.id}/start`, { method: 'POST', token })).json());
  return {
    s,
    agent,
    mapping: status.mapping!,
    proxyPid: proxy?.child.pid,
    async close() {
      await agent.kill('SIGTERM');
      await proxy?.stop();
      await tearDown(s, cleanup);
    },
  };
}

/** A `fleetlink-proxy` process registered at the console as its PROXY server, serving on these ports. */
async function standaloneProxy(s: MessagingSetup, token: string, dirs: string[], ports: { http: number; tcp: string }): Promise<StandaloneProxy> {
  const dir = tempDir('fleetlink-bench-proxy-');
  dirs.push(dir);
  const key = hostKeyFile(dir);
  const ssh = await freePort();
  const password = 'bench-proxy-password';
  const registered = await s.tc.api('/api/server', {
    method: 'POST',
    token,
    json: { type: 'PROXY', url: `ssh://127.0.0.1:${ssh}`, maxCapacity: 1000, status: 'ONLINE', password, hostKey: key.publicKey },
  });
  const serverId = serverSchema.parse(await registered.json()).id;
  return startStandaloneProxy({
    ...{ FLEETLINK_CONSOLE_URL: s.tc.url, PROXY_SERVER_ID: serverId, PROXY_PASSWORD: password, PROXY_HOST_KEY_FILE: key.file, PROXY_DOMAIN: 'localhost' },
    ...{ PROXY_SSH_HOST: '127.0.0.1', PROXY_SSH_PORT: String(ssh), PROXY_HTTP_HOST: '127.0.0.1', PROXY_HTTP_PORT: String(ports.http), PROXY_TCP_HOST: '127.0.0.1', PROXY_TCP_PORTS: ports.tcp },
  });
}
