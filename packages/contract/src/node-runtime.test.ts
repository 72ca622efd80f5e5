import { describe, expect, it } from 'vitest';
import { nodeEndOfLife } from './node-runtime.js';

describe('nodeEndOfLife', () => {
  it('gives the day a line lost its security fixes, from that day on', () => {
    expect(nodeEndOfLife('20.20.2', new Date('2026-11-30T00:00:00Z'))).toBe('2026-04-30');
    expect(nodeEndOfLife('v20.19.0', new Date('2026-04-30T12:00:00Z'))).toBe('2026-04-30');
    expect(nodeEndOfLife('20.19.0', new Date('2026-04-29T23:59:59Z'))).toBeUndefined();
    expect(nodeEndOfLife('25.1.0', new Date('2026-11-30T00:00:00Z'))).toBe('2026-06-01');
  });

  it('says nothing of a supported line, a line newer than it knows, or what is no version', () => {
    expect(nodeEndOfLife('24.22.3', new Date('2026-11-30T00:00:00Z'))).toBeUndefined();
    expect(nodeEndOfLife('22.12.0', new Date('2026-11-30T00:00:00Z'))).toBeUndefined();
    expect(nodeEndOfLife('30.0.0', new Date('2040-01-01T00:00:00Z'))).toBeUndefined();
    for (const v of [undefined, '', 'Node.js', '20']) expect(nodeEndOfLife(v)).toBeUndefined();
  });
});
