import { describe, expect, it } from 'vitest';
import { contrastRatio, readableOn } from './contrast.test-support';

describe('contrast', () => {
  it('measures as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    // Mantine's dimmed grey on its grey.0, as axe measured it (issue 71).
    expect(contrastRatio('#868e96', '#f8f9fa')).toBeCloseTo(3.15, 2);
  });

  it('keeps a readable colour and darkens one that is not just enough', () => {
    expect(readableOn('#495057', ['#ffffff'])).toBe('#495057');
    const tone = readableOn('#868e96', ['#ffffff', '#f8f9fa']);
    expect(contrastRatio(tone, '#f8f9fa')).toBeGreaterThanOrEqual(4.5);
    // Not darker than it needs to be: one step lighter would fail.
    expect(contrastRatio(tone, '#f8f9fa')).toBeLessThan(4.8);
  });
});
