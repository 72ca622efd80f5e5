import { describe, expect, it } from 'vitest';
import { parseProxyConfig } from './config.js';
import { tunnelAddress } from './proxy.js';

const required = { FLEETLINK_CONSOLE_URL: 'https://console.example.com/', PROXY_SERVER_ID: '6f1c7e2a-4b1d-4c3e-9a55-0c1e8e3f2b10', PROXY_PASSWORD: 'p', PROXY_DOMAIN: 'Tunnels.Example.com' };

describe('a standalone proxy’s configuration', () => {
  it('has defaults for everything but the console, its credentials and the domain', () => {
    expect(parseProxyConfig(required)).toMatchObject({
      FLEETLINK_CONSOLE_URL: 'https://console.example.com',
      PROXY_DOMAIN: 'tunnels.example.com',
      PROXY_SSH_PORT: 2222,
      PROXY_TCP_PORTS: { from: 20000, to: 20999 },
      PROXY_HOST_KEY_FILE: 'fleetlink-proxy-host-key',
    });
  });

  it('names each variable that is wrong, and what is wrong with it', () => {
    expect(() => parseProxyConfig({ ...required, PROXY_SERVER_ID: 'nope', PROXY_TCP_PORTS: '30000-20000', PROXY_TLS_CERT_FILE: 'cert.pem' })).toThrow(
      'Invalid configuration: PROXY_SERVER_ID: must be the id of the PROXY server registered at the console; PROXY_TCP_PORTS: must be ports between 1 and 65535, the lower one first',
    );
    expect(() => parseProxyConfig({ ...required, PROXY_TLS_CERT_FILE: 'cert.pem' })).toThrow(
      'Invalid configuration: PROXY_TLS_KEY_FILE: PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE go together: set both for HTTPS, or neither',
    );
    expect(() => parseProxyConfig({ ...required, PROXY_METRICS_PORT: '9465', PROXY_METRICS_HOST: '0.0.0.0' })).toThrow(
      'Invalid configuration: PROXY_METRICS_TOKEN: must be set when PROXY_METRICS_HOST is not a loopback address: the metrics would be open to anyone who can reach it',
    );
    expect(parseProxyConfig({ ...required, PROXY_METRICS_PORT: '9465' })).toMatchObject({ PROXY_METRICS_PORT: 9465, PROXY_METRICS_HOST: '127.0.0.1' });
  });
});

describe('a host name as the console knows tunnels', () => {
  it('is a path on the proxy’s own domain, or the first label on a custom one', () => {
    expect(tunnelAddress('app.tunnels.example.com', 'tunnels.example.com')).toEqual({ path: 'app', customDomain: null });
    expect(tunnelAddress('app.acme.example', 'tunnels.example.com')).toEqual({ path: 'app', customDomain: 'acme.example' });
    expect(tunnelAddress('a.b.tunnels.example.com', 'tunnels.example.com')).toEqual({ path: 'a', customDomain: 'b.tunnels.example.com' });
    expect(tunnelAddress('localhost', 'localhost')).toBeUndefined();
  });
});
