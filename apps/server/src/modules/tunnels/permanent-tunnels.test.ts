import { tunnelSchema, type Tunnel } from '@fleetlink/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/test-console.js';
import { agentOnline, deviceRow, embeddedSetup, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { ServersRepository } from '../servers/servers.repository.js';
import { startEmbeddedProxy } from './embedded-proxy.js';
import { ingressGet, startLocalService, type LocalService } from './local-service.test-support.js';

/**
 * Issue 30: a PERMANENT tunnel someone connected comes back by itself when the agent, the proxy or
 * the console restarts; an EPHEMERAL one does not, nor a PERMANENT one someone disconnected.
 */
describe('PERMANENT tunnels', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let service: LocalService;
  let other: LocalService;
  let admin: string;
  let deviceId: string;
  let agent: AgentProcess;
  let permanent: Tunnel;
  let ephemeral: Tunnel;
  const ports = { ssh: 0, http: 0, tcp: 0 };
  /** The proxy the proxy-restart test started in place of the console's. */
  let ownProxy: Awaited<ReturnType<typeof startEmbeddedProxy>> | undefined;

  const api = (path: string, method = 'GET', json?: object) => s.tc.api(`/api/device/${deviceId}/tunnel${path}`, { method, token: admin, json });
  const connect = async (t: Tunnel) => expect((await api(`/${t.id}/start`, 'POST')).status).toBe(200);
  const state = async (t: Tunnel) => tunnelSchema.parse(await (await api(`/${t.id}`)).json()).status.state;
  /** The status the ingress answers for a tunnel's host: 200 when it reaches the device. */
  const reach = (t: Tunnel) => ingressGet(ports.http, `${t.path}.localhost`).then((r) => r.status, () => 0);
  const reachable = (t: Tunnel, what: string) => waitFor(async () => (await reach(t)) === 200, 30_000, what);

  beforeAll(async () => {
    ports.ssh = await freePort();
    ports.http = await freePort();
    ports.tcp = await freePort();
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(ports.ssh), TUNNEL_HTTP_PORT: String(ports.http), TUNNEL_TCP_PORTS: String(ports.tcp) });
    service = await startLocalService();
    other = await startLocalService('The other service');
    const made = await onlineMemberDevice(s, 'permanent', { agents, dirs });
    ({ admin, agent } = made);
    deviceId = made.device.id;
    const create = async (json: object) => tunnelSchema.parse(await (await api('', 'POST', json)).json());
    permanent = await create({ port: service.port, path: 'kept', mode: 'PERMANENT' });
    ephemeral = await create({ port: other.port, path: 'passing', mode: 'EPHEMERAL' });
    await Promise.all([connect(permanent), connect(ephemeral)]);
    expect([await reach(permanent), await reach(ephemeral)]).toEqual([200, 200]);
  });
  afterAll(async () => {
    // The agents first: alive, they hold the tunnels' connections to the services, open again as fast as closed.
    await tearDown(s, { agents, dirs });
    await service?.close();
    await other?.close();
  });

  it('come back when the agent restarts', async () => {
    const before = await agent.workerPid();
    const res = await s.tc.api(`/api/device/${deviceId}/command`, { method: 'POST', token: admin, json: { name: 'restart', parameters: [] } });
    expect(res.status).toBe(200);
    await waitFor(() => agent.workerPid().then((pid) => pid !== before && pid), 15_000, 'a new agent process');
    await reachable(permanent, 'the permanent tunnel back after the agent restart');
    expect(await reach(ephemeral)).toBe(502);
    expect(await state(ephemeral)).toBe('DISCONNECTED');
    expect(await state(permanent)).toBe('CONNECTED');
  });

  it('come back when the proxy restarts', async () => {
    await connect(ephemeral);
    await s.tc.proxy!.running.close();
    expect(await reach(permanent)).toBe(0);
    const loopback = '127.0.0.1';
    ownProxy = await startEmbeddedProxy({
      db: s.tc.database.db,
      box: s.tc.box,
      env: {
        ...{ PORT: Number(new URL(s.tc.url).port), HOST: loopback, TUNNEL_DOMAIN: 'localhost' },
        ...{ TUNNEL_SSH_HOST: loopback, TUNNEL_SSH_PORT: ports.ssh, TUNNEL_HTTP_HOST: loopback, TUNNEL_HTTP_PORT: ports.http },
        ...{ TUNNEL_TCP_HOST: loopback, TUNNEL_TCP_PORTS: { from: ports.tcp, to: ports.tcp }, TUNNEL_TCP_MAX_PER_DEVICE: 10 },
      },
      servers: new ServersRepository(s.tc.database.db, s.tc.box),
      log: pino({ level: 'silent' }),
    });
    await reachable(permanent, 'the permanent tunnel back after the proxy restart');
    expect(await reach(ephemeral)).toBe(502);
    expect(await state(ephemeral)).toBe('DISCONNECTED');
  });

  it('come back when the console restarts', async () => {
    await connect(ephemeral);
    // The console's own proxy stopped in the test before: this one holds its ports until the console is down.
    await ownProxy!.running.close();
    await s.tc.restart();
    await reachable(permanent, 'the permanent tunnel back after the console restart');
    expect(await reach(ephemeral)).toBe(502);
    expect(await state(ephemeral)).toBe('DISCONNECTED');
  });

  it('stay down once someone disconnected them, and a tunnel edited to PERMANENT waits to be connected', async () => {
    // Connected as EPHEMERAL, then (the agent restarted, so it is down) made PERMANENT: not wanted yet.
    await connect(ephemeral);
    const order = async () => (await deviceRow(s.tc.database.db, deviceId)).stateOrder;
    const first = await order();
    await s.tc.api(`/api/device/${deviceId}/command`, { method: 'POST', token: admin, json: { name: 'restart', parameters: [] } });
    await waitFor(async () => (await state(ephemeral)) !== 'CONNECTED', 15_000, 'the EPHEMERAL tunnel down with the agent');
    // The new agent, not the old one answering on its way out: the stop below would find it gone.
    await agentOnline(s.tc, deviceId, first);
    // The PERMANENT tunnel reopened by the agent's coming online: disconnected below once it is back,
    // as a person sees it, not while that reopen is still on its way.
    await reachable(permanent, 'the permanent tunnel back after the agent restart');
    const edited = await api(`/${ephemeral.id}`, 'PUT', { port: ephemeral.port, path: 'passing', mode: 'PERMANENT' });
    expect(edited.status, await edited.clone().text()).toBe(200);

    const stopped = await api(`/${permanent.id}/stop`, 'POST');
    expect(stopped.status, await stopped.clone().text()).toBe(200);
    const before = await agent.workerPid();
    const second = await order();
    await s.tc.api(`/api/device/${deviceId}/command`, { method: 'POST', token: admin, json: { name: 'restart', parameters: [] } });
    await waitFor(() => agent.workerPid().then((pid) => pid !== before && pid), 15_000, 'a new agent process');
    await agentOnline(s.tc, deviceId, second);
    // Long enough for a reopen to have happened, had there been one.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await reach(permanent)).toBe(502);
    expect(await reach(ephemeral)).toBe(502);
    expect(await state(permanent)).toBe('DISCONNECTED');
  });
});
