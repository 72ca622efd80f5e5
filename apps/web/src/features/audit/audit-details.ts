import type { AuditEntry } from '@fleetlink/contract';

const MAX_VALUE = 120;

/** A value as one short line of text (it is rendered as text, never as HTML). */
function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/**
 * An entry's details as short lines: `field: value`, and for an edit `field: before → after`.
 * Ids the row already shows as names are left out.
 */
export function describeDetails(entry: Pick<AuditEntry, 'details'>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(entry.details)) {
    if (key === 'changes' && value && typeof value === 'object') {
      for (const [field, change] of Object.entries(value as Record<string, unknown>)) {
        const [before, after] = Array.isArray(change) ? change : [undefined, change];
        lines.push(`${field}: ${show(before)} → ${show(after)}`);
      }
    } else if (key === 'parameters' && value && typeof value === 'object') {
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) lines.push(`${name}: ${show(v)}`);
    } else {
      lines.push(`${key}: ${show(value)}`);
    }
  }
  return lines;
}
