import { serverSchema, tunnelSchema, type Tunnel } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/test-console.js';
import { embeddedSetup, enrollByHand, memberDevice, onlineMemberDevice, tearDown, tempDir, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { ingressGetTls, startLocalService, type LocalService } from './local-service.test-support.js';
import { sample, scrape } from '../system/prometheus.test-support.js';
import { hostKeyFile, runProxyToEnd, selfSignedCertificate, startStandaloneProxy, type StandaloneProxy } from './standalone-proxy.test-support.js';

const DOMAIN = 'tunnels.test';

/**
 * Issue 30: `fleetlink-proxy` on its own, registered at the console as a PROXY server, serving HTTPS
 * with its certificate; devices are assigned to it like to message servers, and a device moved to
 * it takes its connected tunnels along.
 */
describe('a standalone proxy', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let service: LocalService;
  const services: LocalService[] = [];
  let proxy: StandaloneProxy;
  let admin: string;
  let deviceId: string;
  let proxyServerId: string;
  let cert: Buffer;
  const ports = { ssh: 0, https: 0, tcp: 0 };
  let proxyEnv: Record<string, string>;
  /** The EPHEMERAL tunnel moved to the standalone proxy. */
  let moving: Tunnel;

  /** A GET through the standalone proxy's HTTPS ingress, trusting its certificate, by the name a browser would use. */
  const viaStandalone = (hostname: string) => ingressGetTls(ports.https, hostname, cert);

  beforeAll(async () => {
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(await freePort()) });
    service = await startLocalService('Served by the standalone proxy');
    const made = await onlineMemberDevice(s, 'travelling', { agents, dirs });
    ({ admin } = made);
    deviceId = made.device.id;

    const dir = tempDir('fleetlink-proxy-');
    dirs.push(dir);
    const tls = selfSignedCertificate(dir, DOMAIN);
    cert = tls.cert;
    const key = hostKeyFile(dir);
    Object.assign(ports, { ssh: await freePort(), https: await freePort(), tcp: await freePort() });
    const password = 'proxy-password-for-the-test';
    const registered = await s.tc.api('/api/server', {
      method: 'POST',
      token: admin,
      json: { type: 'PROXY', url: `ssh://127.0.0.1:${ports.ssh}`, maxCapacity: 1000, status: 'ONLINE', username: 'proxy', password, hostKey: key.publicKey },
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    proxyServerId = serverSchema.parse(await registered.json()).id;
    proxyEnv = {
      FLEETLINK_CONSOLE_URL: s.tc.url,
      PROXY_SERVER_ID: proxyServerId,
      PROXY_PASSWORD: password,
      PROXY_HOST_KEY_FILE: key.file,
      PROXY_SSH_HOST: '127.0.0.1',
      PROXY_SSH_PORT: String(ports.ssh),
      PROXY_HTTP_HOST: '127.0.0.1',
      PROXY_HTTP_PORT: String(ports.https),
      PROXY_TCP_HOST: '127.0.0.1',
      PROXY_TCP_PORTS: String(ports.tcp),
      PROXY_DOMAIN: DOMAIN,
      PROXY_TLS_CERT_FILE: tls.certFile,
      PROXY_TLS_KEY_FILE: tls.keyFile,
      PROXY_METRICS_PORT: String(await freePort()),
    };
    proxy = await startStandaloneProxy(proxyEnv);
    expect(proxy.publicKey).toBe(key.publicKey);
  });
  afterAll(async () => {
    await proxy?.stop();
    await service?.close();
    for (const other of services) await other.close();
    await tearDown(s, { agents, dirs });
  });

  it('says in one line what is wrong with its configuration or its credentials', async () => {
    const missing = await runProxyToEnd({});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'fleetlink-proxy: Invalid configuration: FLEETLINK_CONSOLE_URL: is required; PROXY_SERVER_ID: is required; PROXY_PASSWORD: is required; PROXY_DOMAIN: is required\n',
    );
    const dir = tempDir('fleetlink-proxy-');
    dirs.push(dir);
    const wrong = await runProxyToEnd({
      ...{ FLEETLINK_CONSOLE_URL: s.tc.url, PROXY_SERVER_ID: proxyServerId, PROXY_PASSWORD: 'not it', PROXY_DOMAIN: DOMAIN, PROXY_HOST_KEY_FILE: `${dir}/key` },
      ...{ PROXY_SSH_HOST: '127.0.0.1', PROXY_SSH_PORT: String(await freePort()), PROXY_HTTP_HOST: '127.0.0.1', PROXY_HTTP_PORT: String(await freePort()) },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `fleetlink-proxy: The console at ${s.tc.url} refused this proxy: A tunnel proxy signs in with its PROXY server id and password. Check PROXY_SERVER_ID and PROXY_PASSWORD against the PROXY server registered there.\n`,
    );
    // Its first start made a host key there and said what to register.
    expect(wrong.stdout).toMatch(new RegExp(`^fleetlink-proxy: made a host key in ${dir}/key; register its public half as the PROXY server's host key: ssh-ed25519 \\S+\\n$`));
  });

  it('takes the tunnels of a device moved to it, over HTTPS, and the old proxy lets them go', async () => {
    const create = await s.tc.api(`/api/device/${deviceId}/tunnel`, { method: 'POST', token: admin, json: { port: service.port, path: 'moving' } });
    const tunnel = (moving = tunnelSchema.parse(await create.json()));
    expect((await s.tc.api(`/api/device/${deviceId}/tunnel/${tunnel.id}/start`, { method: 'POST', token: admin })).status).toBe(200);
    const embeddedProxyId = s.tc.proxy!.serverId;
    expect((await status(tunnel)).mapping).toMatch(/^http:\/\/moving\.localhost:\d+$/);

    const moved = await s.tc.api(`/api/server-migrate/${deviceId}/${embeddedProxyId}/${proxyServerId}`, { method: 'POST', token: admin });
    expect(moved.status, await moved.clone().text()).toBe(200);
    await waitFor(async () => (await status(tunnel)).mapping?.startsWith('https://'), 20_000, 'the tunnel connected at the standalone proxy');
    expect(await status(tunnel)).toEqual({ port: service.port, state: 'CONNECTED', mapping: `https://moving.${DOMAIN}:${ports.https}` });
    const page = await viaStandalone(`moving.${DOMAIN}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Served by the standalone proxy</h1>');
    // The built-in proxy no longer serves it (and its late report of the end did not count).
    expect(s.tc.proxy!.running.tunnels).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect((await status(tunnel)).state).toBe('CONNECTED');
  });

  it('serves its own metrics on PROXY_METRICS_PORT: connections, tunnels, bytes, answers and refusals (issue 67)', async () => {
    expect(proxy.output()).toContain(`fleetlink-proxy: metrics at http://127.0.0.1:${proxyEnv.PROXY_METRICS_PORT}/metrics`);
    expect((await viaStandalone(`moving.${DOMAIN}`)).status).toBe(200);
    expect((await viaStandalone(`nobody.${DOMAIN}`)).status).toBe(404);
    const url = `http://127.0.0.1:${proxyEnv.PROXY_METRICS_PORT}/metrics`;
    const text = await waitFor(async () => {
      const t = await scrape(url);
      return (sample(t, 'fleetlink_proxy_bytes_total', { direction: 'out' }) ?? 0) > 0 && t;
    }, 10_000, 'the ingress connections closed and counted');
    expect(sample(text, 'fleetlink_proxy_ssh_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fleetlink_proxy_tunnels')).toBe(1);
    expect(sample(text, 'fleetlink_proxy_http_requests_total', { status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fleetlink_proxy_http_requests_total', { status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fleetlink_proxy_refusals_total', { kind: 'ingress' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fleetlink_proxy_bytes_total', { direction: 'in' })).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('gets new devices like message servers do: the least loaded by devices / capacity', async () => {
    const proxyOf = async (id: string) => ((await (await s.tc.api(`/api/device/${id}/servers`, { token: admin })).json()) as { id: string; type: string }[]).find((x) => x.type === 'PROXY')?.id;
    // Now the built-in proxy (capacity 100) serves no device and this one (capacity 1000) the moved one:
    // 0/100 < 1/1000, then 1/100 > 1/1000.
    const first = await memberDevice(s.tc.database.db, 'first new');
    await enrollByHand(s.tc, first);
    expect(await proxyOf(first.id)).toBe(s.tc.proxy!.serverId);
    const second = await memberDevice(s.tc.database.db, 'second new');
    await enrollByHand(s.tc, second);
    expect(await proxyOf(second.id)).toBe(proxyServerId);
  });

  it('killed (-9), its tunnels leave CONNECTED within 60 s and its card says Unreachable; back, a PERMANENT tunnel serves again by itself (issue 67)', async () => {
    const lastingService = await startLocalService('Served after the proxy came back');
    services.push(lastingService);
    const create = await s.tc.api(`/api/device/${deviceId}/tunnel`, { method: 'POST', token: admin, json: { port: lastingService.port, path: 'lasting', mode: 'PERMANENT' } });
    expect(create.status, await create.clone().text()).toBe(201);
    const tunnel = tunnelSchema.parse(await create.json());
    expect((await s.tc.api(`/api/device/${deviceId}/tunnel/${tunnel.id}/start`, { method: 'POST', token: admin })).status).toBe(200);
    expect((await viaStandalone(`lasting.${DOMAIN}`)).status).toBe(200);
    expect((await card()).connection).toMatchObject({ state: 'CONNECTED', error: null });

    const killed = Date.now();
    await new Promise<void>((resolve) => {
      proxy.child.once('exit', () => resolve());
      proxy.child.kill('SIGKILL');
    });
    await waitFor(async () => (await status(tunnel)).state === 'DISCONNECTED', 60_000, 'the killed proxy\'s tunnel shown disconnected');
    const noticedMs = Date.now() - killed;
    console.log(`the killed proxy's tunnel shown DISCONNECTED ${noticedMs} ms after the kill`);
    expect(noticedMs).toBeLessThan(60_000);
    expect(noticedMs).toBeGreaterThan(25_000); // not before the proxy had a chance to call
    expect(await status(tunnel)).toMatchObject({ state: 'DISCONNECTED', mapping: null });
    expect((await status(moving)).state).toBe('DISCONNECTED');
    expect((await card()).connection).toMatchObject({ state: 'UNREACHABLE', error: 'the proxy has not called the console since then' });

    proxy = await startStandaloneProxy(proxyEnv);
    await waitFor(async () => (await status(tunnel)).state === 'CONNECTED', 30_000, 'the PERMANENT tunnel connected again');
    const page = await viaStandalone(`lasting.${DOMAIN}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Served after the proxy came back</h1>');
    expect((await card()).connection).toMatchObject({ state: 'CONNECTED' });
    // The EPHEMERAL one stays down until someone connects it.
    expect((await status(moving)).state).toBe('DISCONNECTED');
    expect((await s.tc.api(`/api/device/${deviceId}/tunnel/${moving.id}/start`, { method: 'POST', token: admin })).status).toBe(200);
  }, 120_000);

  it('ends a deleted device\'s SSH connection and ingress name within 2 s (issue 57)', async () => {
    expect((await viaStandalone(`moving.${DOMAIN}`)).status).toBe(200);
    const deleted = await s.tc.api(`/api/device/${deviceId}`, { method: 'DELETE', token: admin });
    expect(deleted.status).toBe(204);
    const from = Date.now();
    await waitFor(async () => (await viaStandalone(`moving.${DOMAIN}`)).status === 404 || undefined, 2000, 'the standalone proxy to forget the name');
    expect(Date.now() - from).toBeLessThan(2000);
  });

  async function card() {
    return serverSchema.parse(await (await s.tc.api(`/api/server/${proxyServerId}`, { token: admin })).json());
  }

  async function status(t: Tunnel) {
    return tunnelSchema.parse(await (await s.tc.api(`/api/device/${deviceId}/tunnel/${t.id}`, { token: admin })).json()).status;
  }
});
