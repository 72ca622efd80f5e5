import { auditKindLabels, type AuditEntry } from '@fleetlink/contract';

const HEADER = ['Time', 'Who', 'Subject', 'Client address', 'Action', 'Kind', 'Organization', 'Organization id', 'Device', 'Device id', 'Outcome', 'Error', 'Details'];

/** Characters a spreadsheet reads as the start of a formula (OWASP "CSV injection"), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. A
 * value a spreadsheet would run as a formula gets a leading apostrophe, so it shows as text.
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const auditCsvHeader = () => csvLine(HEADER);

export function auditCsvLine(e: AuditEntry): string {
  return csvLine([
    e.time,
    e.username,
    e.subject,
    e.clientAddress,
    auditKindLabels[e.kind],
    e.kind,
    e.organization?.name,
    e.organization?.id,
    e.device?.name,
    e.device?.id,
    e.outcome,
    e.error,
    Object.keys(e.details).length ? JSON.stringify(e.details) : '',
  ]);
}
