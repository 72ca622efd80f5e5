import { describe, expect, it } from 'vitest';
import { isTunnelMapping } from './tunnel-mapping.js';

const http = { type: 'HTTP' as const, path: 'shop', customDomain: null, port: 8080 };
const tcp = { type: 'TCP' as const, path: null, customDomain: null, port: 22 };

describe('a mapping a proxy reports', () => {
  it("is the tunnel's address on the proxy's domain or its custom domain", () => {
    expect(isTunnelMapping('http://shop.tunnels.example.com', http, 'tunnels.example.com')).toBe(true);
    expect(isTunnelMapping('https://shop.tunnels.example.com:8443', http, 'tunnels.example.com')).toBe(true);
    expect(isTunnelMapping('http://shop.localhost:8081', http, 'localhost')).toBe(true);
    expect(isTunnelMapping('https://shop.acme.example', { ...http, customDomain: 'acme.example' }, 'tunnels.example.com')).toBe(true);
    expect(isTunnelMapping('tunnels.example.com:20001', tcp, 'tunnels.example.com')).toBe(true);
  });

  it('is refused when it points anywhere else', () => {
    for (const mapping of [
      'https://evil.example/login',
      'https://shop.tunnels.example.com/login',
      'https://shop.tunnels.example.com?next=https://evil.example',
      'https://user:pw@shop.tunnels.example.com',
      'javascript:alert(1)',
      'http://other.tunnels.example.com',
      'http://shop.tunnels.example.com.evil.example',
      'ftp://shop.tunnels.example.com',
      'shop.tunnels.example.com',
    ]) {
      expect(isTunnelMapping(mapping, http, 'tunnels.example.com'), mapping).toBe(false);
    }
    expect(isTunnelMapping('https://shop.tunnels.example.com', { ...http, customDomain: 'acme.example' }, 'tunnels.example.com')).toBe(false);
    expect(isTunnelMapping('evil.example:20001', tcp, 'tunnels.example.com')).toBe(false);
    expect(isTunnelMapping('tunnels.example.com:70000', tcp, 'tunnels.example.com')).toBe(false);
    expect(isTunnelMapping('http://tunnels.example.com:20001', tcp, 'tunnels.example.com')).toBe(false);
    expect(isTunnelMapping('tunnels.example.com:20001', tcp, null)).toBe(false);
  });
});
