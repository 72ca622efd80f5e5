import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** CSV for the exports (the audit trail, a job's results): cells a spreadsheet reads as text, never as a formula. */

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

/** One CSV record, CRLF-ended (RFC 4180). */
export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;


/** Streams the CSV as it is read; the file name says which day it was taken. */
export function sendCsv(reply: FastifyReply, csv: { name: string; lines: AsyncIterable<string> | Iterable<string> }) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.name}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(csv.lines));
}
