import { auditKindLabels, type AuditEntry } from '@fleetlink/contract';
import { csvLine } from '../../lib/csv.js';

const HEADER = ['Time', 'Who', 'Subject', 'Client address', 'Action', 'Kind', 'Organization', 'Organization id', 'Device', 'Device id', 'Outcome', 'Error', 'Details'];

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
