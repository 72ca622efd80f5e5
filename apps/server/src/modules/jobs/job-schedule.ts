import { parseCron, type JobSchedule } from '@fleetlink/contract';

/**
 * When a job's next run starts after a run started at `now`: a cron job's next time (croner), and
 * nothing more for 'now' and 'once'. A cron expression stored is one that parsed when it was made.
 */
export function nextRunOf(schedule: JobSchedule, now: Date, cronSeconds: boolean): Date | null {
  if (schedule.kind !== 'cron') return null;
  const cron = parseCron(schedule.expression, { timezone: schedule.timezone, seconds: cronSeconds });
  return 'error' in cron ? null : cron.nextRun(now);
}

/** The first run of a new job; for a schedule also its next three times, as the form shows them. */
export function firstRunsOf(schedule: JobSchedule, now: Date, cronSeconds: boolean): { first: Date; next: Date[] } | { field: string; error: string } {
  switch (schedule.kind) {
    case 'now':
      return { first: now, next: [] };
    case 'once': {
      const at = new Date(schedule.at);
      if (at.getTime() <= now.getTime()) return { field: 'schedule.at', error: 'Start time must be in the future.' };
      return { first: at, next: [at] };
    }
    case 'cron': {
      const cron = parseCron(schedule.expression, { timezone: schedule.timezone, seconds: cronSeconds });
      if ('error' in cron) return { field: 'schedule.expression', error: cron.error };
      const next = cron.nextRuns(3, now);
      return { first: next[0]!, next };
    }
  }
}
