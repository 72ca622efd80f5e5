import { describe, expect, it } from 'vitest';
import { securitySummary } from './tunnel-card-text';

describe('securitySummary', () => {
  it('says which of the two checks a tunnel has, in the spec words', () => {
    expect(securitySummary({ securityIp: '10.0.0.0/8', withSecurityCredentials: true })).toBe('IP and password');
    expect(securitySummary({ securityIp: '10.0.0.0/8', withSecurityCredentials: false })).toBe('IP only');
    expect(securitySummary({ securityIp: null, withSecurityCredentials: true })).toBe('with password');
    expect(securitySummary({ securityIp: null, withSecurityCredentials: false })).toBe('any IP');
  });
});
