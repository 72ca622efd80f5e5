import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './alert-sender.js';
import { signWebhook } from './webhook-post.js';
import { refusedAddress, refusedUrl } from './webhook-target.js';
import { verifySignature } from './webhook-receiver.test-support.js';

const consoleOrigins = ['https://console.example.com', 'http://localhost:8080'];

describe('webhook targets (SSRF)', () => {
  it('never takes link-local, metadata or reserved addresses, even with private targets allowed', () => {
    for (const ip of ['169.254.169.254', '169.254.1.1', '0.0.0.0', 'fe80::1', '::', 'fd00:ec2::254', '::ffff:169.254.169.254', '224.0.0.1']) {
      expect(refusedAddress(ip, true), ip).toMatch(/link-local, metadata or reserved/);
    }
  });

  it('takes private and loopback addresses only when the operator allows them', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.0.1', '::1', 'fd12::1', '::ffff:10.0.0.1']) {
      expect(refusedAddress(ip, false), ip).toMatch(/private or loopback address: a webhook goes there only when the operator allows private targets/);
      expect(refusedAddress(ip, true), ip).toBeUndefined();
    }
    expect(refusedAddress('93.184.216.34', false)).toBeUndefined();
    expect(refusedAddress('2606:2800:220:1::1', false)).toBeUndefined();
  });

  it('refuses the console itself and literal addresses before resolving anything', () => {
    expect(refusedUrl('https://console.example.com/api/devices', { allowPrivate: true, consoleOrigins })).toBe('The webhook URL cannot be the console itself.');
    expect(refusedUrl('http://localhost:8080/api', { allowPrivate: true, consoleOrigins })).toBe('The webhook URL cannot be the console itself.');
    expect(refusedUrl('http://localhost:9000/hook', { allowPrivate: false, consoleOrigins })).toMatch(/private or loopback/);
    expect(refusedUrl('http://[::1]:9000/hook', { allowPrivate: false, consoleOrigins })).toMatch(/private or loopback/);
    expect(refusedUrl('http://169.254.169.254/latest', { allowPrivate: true, consoleOrigins })).toMatch(/metadata/);
    expect(refusedUrl('https://hooks.example.net/fleet', { allowPrivate: false, consoleOrigins })).toBeUndefined();
  });
});

describe('webhook signatures and retries', () => {
  it('signs the time with the body, so another body, secret or a stale time fails', () => {
    const now = Math.floor(Date.now() / 1000);
    const header = signWebhook('whsec_a', '{"id":"1"}', now);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, '{"id":"1"}', 'whsec_a')).toBe(true);
    expect(verifySignature(header, '{"id":"2"}', 'whsec_a')).toBe(false);
    expect(verifySignature(header, '{"id":"1"}', 'whsec_b')).toBe(false);
    expect(verifySignature(signWebhook('whsec_a', '{"id":"1"}', now - 600), '{"id":"1"}', 'whsec_a')).toBe(false);
  });

  it('waits twice as long after each failed try, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20, 30)).toBe(3600_000);
  });
});
