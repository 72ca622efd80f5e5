import type { LivePart } from '@fleetlink/contract';

/** One device's changes since they were last sent; `org` once known (it decides who may see them). */
export interface DeviceChange {
  id: string;
  org?: string;
  online?: boolean;
  parts: LivePart[];
}

/**
 * Changes of many devices gathered until they are sent, one entry per device: its parts merged and
 * its last online state kept. The bus gathers them between flushes, each stream between sends.
 */
export class DeviceChanges {
  private entries = new Map<string, { org?: string; online?: boolean; parts: Set<LivePart> }>();

  get size(): number {
    return this.entries.size;
  }

  add(id: string, parts: Iterable<LivePart>, o: { online?: boolean; org?: string } = {}): void {
    const entry = this.entries.get(id) ?? { parts: new Set<LivePart>() };
    for (const p of parts) entry.parts.add(p);
    if (o.online !== undefined) entry.online = o.online;
    if (o.org) entry.org = o.org;
    this.entries.set(id, entry);
  }

  /** Forgets the changes of an organization's devices. */
  dropOrganization(org: string): void {
    for (const [id, e] of this.entries) if (e.org === org) this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Every entry, as sent (no `online` when it did not change), and empties the set. */
  take(): DeviceChange[] {
    const taken = [...this.entries].map(([id, e]) => ({ id, ...(e.org ? { org: e.org } : {}), ...(e.online === undefined ? {} : { online: e.online }), parts: [...e.parts] }));
    this.entries = new Map();
    return taken;
  }
}
