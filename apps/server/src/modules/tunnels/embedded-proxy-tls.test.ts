import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../env.js';
import { freePort } from '../../testing/test-console.js';
import { embeddedSetup, onlineMemberDevice, tearDown, tempDir, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { ingressGetTls, startLocalService, type LocalService } from './local-service.test-support.js';
import { selfSignedCertificate } from './standalone-proxy.test-support.js';
import { connectTunnel, createTunnel } from './tunnel-api.test-support.js';

// A wildcard certificate needs a name of two labels or more under it: Node refuses `*.localhost`.
const DOMAIN = 'tunnels.test';

/** Issue 59: the built-in proxy takes a certificate as a standalone one does, and its HTTP tunnels are https links. */
describe('the built-in proxy with TUNNEL_TLS_CERT_FILE and TUNNEL_TLS_KEY_FILE', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let service: LocalService;
  let cert: Buffer;
  let httpsPort: number;

  beforeAll(async () => {
    const dir = tempDir('fleetlink-embedded-tls-');
    dirs.push(dir);
    const tls = selfSignedCertificate(dir, DOMAIN);
    cert = tls.cert;
    httpsPort = await freePort();
    s = await embeddedSetup({
      TUNNEL_SSH_PORT: String(await freePort()),
      TUNNEL_HTTP_PORT: String(httpsPort),
      TUNNEL_DOMAIN: DOMAIN,
      TUNNEL_TLS_CERT_FILE: tls.certFile,
      TUNNEL_TLS_KEY_FILE: tls.keyFile,
    });
    service = await startLocalService('Served over HTTPS by the built-in proxy');
  });
  afterAll(async () => {
    await service?.close();
    await tearDown(s, { agents, dirs });
  });

  it('maps an HTTP tunnel to an https link and serves it with the certificate', async () => {
    const { admin, device } = await onlineMemberDevice(s, 'over https', { agents, dirs });
    const tunnel = await createTunnel(s.tc, admin, device.id, { port: service.port, path: 'secure' });
    const status = await connectTunnel(s.tc, admin, device.id, tunnel);
    expect(status.mapping).toBe(`https://secure.${DOMAIN}:${httpsPort}`);
    const answer = await ingressGetTls(httpsPort, `secure.${DOMAIN}`, cert);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('Served over HTTPS by the built-in proxy');
  }, 60_000);

  it('wants both files, and says so', () => {
    expect(() => parseEnv({ TUNNEL_TLS_CERT_FILE: '/x/cert.pem' })).toThrow(
      'Invalid configuration: TUNNEL_TLS_KEY_FILE: TUNNEL_TLS_CERT_FILE and TUNNEL_TLS_KEY_FILE go together: set both for HTTPS tunnels, or neither',
    );
  });
});
