import type { Job, JobResultState } from '@fleetlink/contract';
import { formatDateTime } from '../../app/format/date-format';
import { cronInWords } from './cron-words';

/** "'execute' on devices tagged 'berlin'". */
export const jobTitle = (job: Pick<Job, 'command' | 'targetText'>) => `'${job.command.name}' on ${job.targetText}`;

/** When the job runs, in words. */
export function scheduleText(job: Pick<Job, 'schedule'>): string {
  const s = job.schedule;
  if (s.kind === 'now') return 'Once, when created';
  if (s.kind === 'once') return `Once, at ${formatDateTime(new Date(s.at))}`;
  const words = cronInWords(s.expression);
  return `Repeating: ${words ?? s.expression} (${s.timezone})`;
}

export const stateColor: Record<Job['state'] | JobResultState, string> = {
  scheduled: 'blue',
  active: 'blue',
  done: 'green',
  cancelled: 'gray',
  queued: 'gray',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
  expired: 'orange',
  skipped: 'yellow',
};
