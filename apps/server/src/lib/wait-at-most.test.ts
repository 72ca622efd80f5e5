import { describe, expect, it } from 'vitest';
import { waitAtMost } from './wait-at-most.js';

describe('waitAtMost', () => {
  it('ends with the work, at its bound when the work never ends, and never rejects', async () => {
    let t = performance.now();
    await waitAtMost(5000, new Promise((r) => setTimeout(r, 20)));
    expect(performance.now() - t).toBeLessThan(1000);
    t = performance.now();
    await waitAtMost(50, new Promise(() => {}));
    expect(performance.now() - t).toBeGreaterThanOrEqual(45);
    await expect(waitAtMost(1000, Promise.reject(new Error('refused')))).resolves.toBeUndefined();
  });
});
