import { jobResultStateLabels } from '@fleetlink/contract';
import { csvLine } from '../../lib/csv.js';
import type { JobResultRow } from './jobs.repository.js';

const HEADER = ['Device', 'Device id', 'State', 'Exit code', 'Duration (ms)', 'Started', 'Finished', 'Reason', 'Output', 'Errors'];

export const jobsCsvHeader = () => csvLine(HEADER);

/** One device's result; its output as the device printed it (formula-like text is defused by csvLine). */
export function jobsCsvLine(r: JobResultRow): string {
  return csvLine([
    r.deviceName,
    r.deviceId,
    jobResultStateLabels[r.state],
    r.exitCode === null ? '' : String(r.exitCode),
    r.durationMs === null ? '' : String(r.durationMs),
    r.startedAt?.toISOString(),
    r.finishedAt?.toISOString(),
    r.reason,
    r.stdout,
    r.stderr,
  ]);
}
