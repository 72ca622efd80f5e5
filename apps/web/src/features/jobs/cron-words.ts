import cronstrue from 'cronstrue';

/** A cron expression in words ("At 03:00 AM"), or nothing when cronstrue cannot read it (the console says why). */
export function cronInWords(expression: string): string | undefined {
  try {
    return cronstrue.toString(expression, { use24HourTimeFormat: true, verbose: false, throwExceptionOnParseError: true });
  } catch {
    return undefined;
  }
}
