import { describe, expect, it } from 'vitest';
import { suggestTunnelPath, tunnelFormSchema } from './tunnel-form.js';

const fieldErrors = (input: object) => {
  const r = tunnelFormSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('tunnel form', () => {
  it('has the spec defaults', () => {
    expect(tunnelFormSchema.parse({ port: '8080' })).toMatchObject({ name: 'Tunnel', type: 'HTTP', mode: 'EPHEMERAL', port: 8080, path: null, host: null, domainId: null });
  });

  it('says what is wrong with a port in the spec words', () => {
    expect(fieldErrors({ port: '' }).port).toBe('Port is required.');
    expect(fieldErrors({}).port).toBe('Port is required.');
    expect(fieldErrors({ port: '0' }).port).toBe('Port must be at least 1.');
    expect(fieldErrors({ port: 65536 }).port).toBe('Port must be less than 65536.');
    expect(fieldErrors({ port: '80a' }).port).toBe('Port is not a valid, it contain invalid characters.');
    expect(fieldErrors({ port: '8.5' }).port).toBe('Port is not a valid, it contain invalid characters.');
  });

  it('checks the path, the allow-list and the credentials', () => {
    expect(fieldErrors({ port: 80, path: 'Upper' }).path).toBe('Path is not a valid, it contain invalid characters.');
    expect(fieldErrors({ port: 80, path: 'a'.repeat(65) }).path).toBe('Path must be less than 65 characters.');
    expect(fieldErrors({ port: 80, path: 'ok_path-1' })).toEqual({});
    expect(tunnelFormSchema.parse({ port: 80, securityIp: ' 10.0.0.0/8 ,, 2001:db8::1, 127.0.0.1 ' }).securityIp).toBe('10.0.0.0/8, 2001:db8::1, 127.0.0.1');
    expect(fieldErrors({ port: 80, securityIp: '10.0.0.300' }).securityIp).toMatch(/comma-separated list of addresses or CIDR ranges/);
    expect(fieldErrors({ port: 80, securityPassword: 'x' }).securityUsername).toBe('Username is required.');
    expect(fieldErrors({ port: 80, securityUsername: 'u'.repeat(256) }).securityUsername).toBe('Username must be less than 256 characters.');
  });

  it('suggests a path from the name', () => {
    expect(suggestTunnelPath('My Web App 2')).toBe('my-web-app-2');
    expect(suggestTunnelPath('2 fast')).toBe('fast');
    expect(suggestTunnelPath('Écran')).toBe('ecran');
    expect(suggestTunnelPath('!!!')).toBe('tunnel');
  });
});
