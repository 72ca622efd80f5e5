import { describe, expect, it } from 'vitest';
import { auditQuerySchema, decodeAuditCursor, encodeAuditCursor } from './audit.js';

describe('audit contract', () => {
  it('round-trips a page cursor and refuses anything else', () => {
    const cursor = { time: new Date('2026-11-24T10:00:00.123Z'), id: '42' };
    expect(decodeAuditCursor(encodeAuditCursor(cursor))).toEqual(cursor);
    for (const bad of ['', '42', 'x_1', '1_x', '1_2_3', `${'9'.repeat(16)}_1`, `${'9'.repeat(15)}_1`, `1_${'9'.repeat(19)}`]) {
      expect(decodeAuditCursor(bad)).toBeUndefined();
    }
    expect(decodeAuditCursor(`253402300799999_${'9'.repeat(18)}`)).toBeDefined();
  });

  it('defaults the page size and lower-cases who', () => {
    expect(auditQuerySchema.parse({ who: ' User@Fleetlink.local ' })).toEqual({ who: 'user@fleetlink.local', size: 50 });
  });

  it('refuses a time range that ends before it starts', () => {
    const r = auditQuerySchema.safeParse({ from: '2026-11-24T10:00:00Z', to: '2026-11-24T09:00:00Z' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['to'], message: 'The start of the time range must not be after its end.' });
  });
});
