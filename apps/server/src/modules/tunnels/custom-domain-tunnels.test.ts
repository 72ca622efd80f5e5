import { tunnelSchema, tunnelStatusSchema, type TunnelDomain } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/test-console.js';
import { embeddedSetup, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { startLocalDnsServer } from '../organizations/local-dns-server.test-support.js';
import { ingressGet, startLocalService, type LocalService } from './local-service.test-support.js';

const PROXY_HOST = 'proxy.fleetlink.test';

/** Issue 30: an organization's proven, ACTIVE custom domain carries its HTTP tunnels at `{path}.{domain}`. */
describe('HTTP tunnels on a custom domain', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let dns: Awaited<ReturnType<typeof startLocalDnsServer>>;
  let service: LocalService;
  let httpPort: number;

  const get = (hostname: string) => ingressGet(httpPort, hostname);

  beforeAll(async () => {
    dns = await startLocalDnsServer();
    httpPort = await freePort();
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(httpPort), TUNNEL_PROXY_HOST: PROXY_HOST, DNS_SERVERS: dns.address, DOMAIN_CHECK_INTERVAL: '1' });
    service = await startLocalService('The shop, on its own domain');
  });
  afterAll(async () => {
    await service?.close();
    await tearDown(s, { agents, dirs });
    await dns?.close();
  });

  it('is served by the ingress once the domain is proven and ACTIVE', async () => {
    const { admin, device } = await onlineMemberDevice(s, 'shop', { agents, dirs });
    const api = (path: string, init: { method?: string; json?: object } = {}) => s.tc.api(path, { token: admin, ...init });
    const registered = await (await api(`/api/organization/${device.organizationId}/domain`, { method: 'POST', json: { domain: 'apps.acme.example' } })).json();
    const domains = async () => (await (await api(`/api/device/${device.id}/tunnel-domains`)).json()) as TunnelDomain[];
    // Registered but not proven: not a choice for tunnels yet.
    expect(await domains()).toEqual([{ id: null, domain: 'localhost' }]);
    dns.cnames.set('apps.acme.example', PROXY_HOST);
    dns.txts.set(registered.challenge.name, [registered.challenge.value]);
    await waitFor(async () => (await domains()).length === 2, 10_000, 'the domain ACTIVE');
    expect(await domains()).toEqual([
      { id: null, domain: 'localhost' },
      { id: registered.id, domain: 'apps.acme.example' },
    ]);

    const created = await api(`/api/device/${device.id}/tunnel`, { method: 'POST', json: { port: service.port, path: 'shop', domainId: registered.id } });
    const tunnel = tunnelSchema.parse(await created.json());
    expect(tunnel).toMatchObject({ domain: 'apps.acme.example', domainId: registered.id, path: 'shop' });
    const status = tunnelStatusSchema.parse(await (await api(`/api/device/${device.id}/tunnel/${tunnel.id}/start`, { method: 'POST' })).json());
    expect(status.mapping).toBe(`http://shop.apps.acme.example:${httpPort}`);
    const page = await get('shop.apps.acme.example');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>The shop, on its own domain</h1>');
    // Only there: on the proxy's own domain that path is no tunnel.
    expect((await get('shop.localhost')).status).toBe(404);
  });
});
