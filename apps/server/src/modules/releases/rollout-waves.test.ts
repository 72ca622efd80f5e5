import type { RolloutWave } from '@fleetlink/contract';
import { describe, expect, it } from 'vitest';
import { deviceHash, waveBoundaries, waveOf } from './rollout-waves.js';

// Fixed ids, not random ones: a share measured on random hashes strays outside any bound now and
// then (CI once saw 32 where 40–200 was expected), and a test must fail only when the rule does.
const fleet = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${(from + i).toString(16).padStart(12, '0')}`);
const waves = (...shares: (number | `${number}%`)[]): RolloutWave[] =>
  shares.map((s) => (typeof s === 'number' ? { unit: 'devices', amount: s } : { unit: 'percent', amount: Number(s.slice(0, -1)) }));
const assign = (ids: string[], b: number[]) => new Map(ids.map((id) => [id, waveOf(deviceHash(id), b)]));
const sizes = (assigned: Map<string, number>, count: number) => Array.from({ length: count }, (_, i) => [...assigned.values()].filter((w) => w === i + 1).length);

describe('wave assignment (issue 65)', () => {
  it('gives each wave its share counted from the start, and every device a wave', () => {
    const ids = fleet(200);
    const plan = waves(1, '10%', '50%', '100%');
    const assigned = assign(ids, waveBoundaries(ids.map(deviceHash), plan));
    // 1 device; 10 % is 20 in all, so 19 more; 50 % is 100, so 80 more; the rest.
    expect(sizes(assigned, 4)).toEqual([1, 19, 80, 100]);
  });

  it('rounds a percent up, so a small fleet still has a first wave; shares past the fleet leave later waves empty', () => {
    const ids = fleet(5);
    expect(sizes(assign(ids, waveBoundaries(ids.map(deviceHash), waves('10%', '100%'))), 2)).toEqual([1, 4]);
    expect(sizes(assign(ids, waveBoundaries(ids.map(deviceHash), waves(1, 2, '100%'))), 3)).toEqual([1, 1, 3]);
    expect(sizes(assign(ids, waveBoundaries(ids.map(deviceHash), waves(10, '50%', '100%'))), 3)).toEqual([5, 0, 0]);
    expect(waveBoundaries([], waves(1, '100%'))).toEqual([-1, 2 ** 48]);
  });

  it('is stable: the same devices in any order make the same waves, and a device keeps its wave in every rollout', () => {
    const ids = fleet(50);
    const plan = waves(2, '30%', '100%');
    const a = assign(ids, waveBoundaries(ids.map(deviceHash), plan));
    const b = assign(ids, waveBoundaries([...ids].reverse().map(deviceHash), plan));
    expect(b).toEqual(a);
    expect(deviceHash(ids[0]!)).toBe(deviceHash(ids[0]!));
  });

  it('keeps every device in its wave when the fleet grows; newcomers join by the same rule', () => {
    const ids = fleet(100);
    const plan = waves(1, '10%', '100%');
    const boundaries = waveBoundaries(ids.map(deviceHash), plan);
    const before = assign(ids, boundaries);
    const grown = [...ids, ...fleet(900, 100)];
    const after = assign(grown, boundaries);
    for (const id of ids) expect(after.get(id)).toBe(before.get(id));
    // The waves grow with the fleet, roughly in their shares (hashes are spread evenly).
    const [first, second, rest] = sizes(after, 3);
    expect(first! + second! + rest!).toBe(1000);
    expect(first! + second!).toBeGreaterThan(40);
    expect(first! + second!).toBeLessThan(200);
  });
});
