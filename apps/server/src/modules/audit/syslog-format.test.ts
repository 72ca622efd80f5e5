import { describe, expect, it } from 'vitest';
import type { AuditRow } from './audit.repository.js';
import { octetCounted, syslogMessage } from './syslog-format.js';
import { parseSyslog } from './syslog-receiver.test-support.js';

const entry = (o: Partial<AuditRow> = {}): AuditRow => ({
  id: 42,
  time: new Date('2026-11-28T10:00:00.123Z'),
  username: 'ada@example.com',
  subject: 'sub-1',
  clientAddress: '203.0.113.7',
  kind: 'device.update',
  organizationId: '11111111-1111-4111-8111-111111111111',
  organizationName: 'Acme "Ops" [EU]',
  deviceId: '22222222-2222-4222-8222-222222222222',
  deviceName: 'gw\\01',
  details: { name: 'gw 01' },
  outcome: 'ok',
  error: null,
  ...o,
});

describe('audit entries as RFC 5424 syslog', () => {
  it('escapes quotes, backslashes and brackets in the structured data, and a collector reads the values back', () => {
    const message = syslogMessage(entry(), 'console.example.com');
    expect(message).toMatch(/^<110>1 2026-11-28T10:00:00\.123Z console\.example\.com fleetlink - device\.update \[fleetlink@32473 id="42" /);
    expect(message).toContain('organization="Acme \\"Ops\\" [EU\\]"');
    const read = parseSyslog(message);
    expect(read.params).toMatchObject({ id: '42', user: 'ada@example.com', address: '203.0.113.7', device: 'gw\\01', organization: 'Acme "Ops" [EU]', outcome: 'ok' });
    expect(read.text).toBe(`Device changed by ada@example.com (device 'gw\\01', organization 'Acme "Ops" [EU]'): done. {"name":"gw 01"}`);
  });

  it('marks a failed action as a warning with its error, and says who acted when no person did', () => {
    const read = parseSyslog(syslogMessage(entry({ username: null, outcome: 'error', error: 'Refused.', kind: 'device.enroll' }), 'h'));
    expect(read.pri).toBe(108);
    expect(read.params.error).toBe('Refused.');
    expect(read.text).toContain('by the device agent');
  });

  it('frames a message by its length in bytes, UTF-8 and all', () => {
    expect(octetCounted('<110>1 é')).toBe('9 <110>1 é');
  });
});
