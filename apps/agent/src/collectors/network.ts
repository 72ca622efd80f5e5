import os from 'node:os';
import { isIPv4 } from 'node:net';

export interface Address {
  type: 'LOCAL' | 'PUBLIC';
  ip: string;
}

/** Private, loopback, link-local and unique-local ranges are LOCAL; anything else is PUBLIC. */
export function classify(ip: string): 'LOCAL' | 'PUBLIC' {
  if (isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    if (a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return 'LOCAL';
    if (a === 100 && b >= 64 && b <= 127) return 'LOCAL'; // carrier-grade NAT
    return 'PUBLIC';
  }
  const lower = ip.toLowerCase();
  if (lower === '::1' || lower.startsWith('fe80') || lower.startsWith('fc') || lower.startsWith('fd')) return 'LOCAL';
  return 'PUBLIC';
}

/** The machine's addresses (loopback left out: it says nothing about where a device is). */
export function addresses(): Address[] {
  const out: Address[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      const ip = a.address.split('%')[0]!;
      out.push({ type: classify(ip), ip });
    }
  }
  return out.slice(0, 64);
}
