import { createHash } from 'node:crypto';
import type { RolloutWave } from '@fleetlink/contract';

/** Hashes are 48-bit numbers: exact in a JavaScript number and in JSON. */
const HASH_TOP = 2 ** 48;

/** Where a device sits in every rollout: the same place each time, whatever else is in the fleet. */
export const deviceHash = (deviceId: string): number => parseInt(createHash('sha256').update(deviceId).digest('hex').slice(0, 12), 16);

/**
 * Decides the waves when a rollout starts: the devices in hash order, each wave taking up to its
 * share counted from the start (a count, or a percent rounded up so a small fleet's first wave is
 * not empty). Answers per wave the largest hash in it (-1 for an empty wave); the last wave takes
 * every hash, so a device that appears later always has a wave, and one that was there keeps its own.
 */
export function waveBoundaries(hashes: readonly number[], waves: readonly RolloutWave[]): number[] {
  const sorted = [...hashes].sort((a, b) => a - b);
  const n = sorted.length;
  let reached = 0;
  return waves.map((w, i) => {
    if (i === waves.length - 1) return HASH_TOP;
    const share = w.unit === 'percent' ? Math.ceil((n * w.amount) / 100) : w.amount;
    reached = Math.min(n, Math.max(reached, share));
    return reached > 0 ? sorted[reached - 1]! : -1;
  });
}

/** The wave (from 1) of a device with this hash. */
export function waveOf(hash: number, boundaries: readonly number[]): number {
  const i = boundaries.findIndex((b) => hash <= b);
  return i < 0 ? boundaries.length : i + 1;
}
