import { auditKindLabels, type AuditKind } from '@fleetlink/contract';
import type { AuditRow } from './audit.repository.js';

/** RFC 5424's facility 13, "log audit"; severities: informational (6) for an action done, warning (4) for one refused or failed. */
const FACILITY = 13;
/** The structured data's id: a name@number of the IANA private enterprise kind (32473 is the one RFC 5612 sets aside for documentation). */
const SD_ID = 'fleetlink@32473';

/** A PARAM-VALUE: `"`, `\` and `]` escaped (RFC 5424 §6.3.3). */
const sdValue = (v: string) => v.replace(/[\\"\]]/g, (c) => `\\${c}`);
/** HOSTNAME, APP-NAME, MSGID: printable US-ASCII without spaces, at most `max` characters; '-' when empty. */
const header = (v: string | null | undefined, max: number) => (v ? v.replace(/[^\x21-\x7e]/g, '_').slice(0, max) : '-');

/**
 * One audit entry as an RFC 5424 message: `<PRI>1 TIME HOST fleetlink - KIND [fleetlink@32473
 * id=… user=… device=… organization=… outcome=…] text`; the text is UTF-8 (after a BOM, as §6.4 asks).
 */
export function syslogMessage(entry: AuditRow, hostname: string): string {
  const severity = entry.outcome === 'ok' ? 6 : 4;
  const params: [string, string | null | undefined][] = [
    ['id', String(entry.id)],
    ['kind', entry.kind],
    ['user', entry.username],
    ['address', entry.clientAddress],
    ['deviceId', entry.deviceId],
    ['device', entry.deviceName],
    ['organizationId', entry.organizationId],
    ['organization', entry.organizationName],
    ['outcome', entry.outcome],
    ['error', entry.error],
  ];
  const sd = `[${SD_ID}${params
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${sdValue(v!)}"`)
    .join('')}]`;
  const label = auditKindLabels[entry.kind as AuditKind] ?? entry.kind;
  const who = entry.username ?? (entry.deviceId ? 'the device agent' : 'the console');
  const what = [entry.deviceName ? `device '${entry.deviceName}'` : '', entry.organizationName ? `organization '${entry.organizationName}'` : ''].filter(Boolean).join(', ');
  const details = Object.keys(entry.details ?? {}).length ? ` ${JSON.stringify(entry.details)}` : '';
  const text = `${label} by ${who}${what ? ` (${what})` : ''}: ${entry.outcome === 'ok' ? 'done' : `failed: ${entry.error ?? ''}`}.${details}`;
  return `<${FACILITY * 8 + severity}>1 ${entry.time.toISOString()} ${header(hostname, 255)} fleetlink - ${header(entry.kind, 32)} ${sd} \uFEFF${text}`;
}

/** RFC 6587 octet counting: the message's length in bytes, a space, the message (a newline inside a message cannot split it). */
export const octetCounted = (message: string) => `${Buffer.byteLength(message, 'utf8')} ${message}`;
