import type { CommandOutput, FileListing } from '@fleetlink/contract';
import { ApiRequestError, GENERIC_ERROR_MESSAGE } from '../../../app/api/api-error';
import { entryCount } from '../files/file-location';
import { formatBytes } from '../summary/units';

/** How long a command took: milliseconds below a second, else seconds with one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The note under a cut output stream (sizes base 1024, SPEC §9); nothing when all of it is shown. */
export function cutNote(cutBytes: number): string | undefined {
  return cutBytes > 0 ? `Output cut: ${formatBytes(cutBytes)} more not shown.` : undefined;
}

/** One line on how the command ended. */
export function outcome(output: CommandOutput): { text: string; ok: boolean } {
  if (output.timedOut) return { text: 'Stopped at its timeout: the command and everything it started were killed.', ok: false };
  if (output.exitCode === null) return { text: `Ended by signal ${output.signal ?? 'unknown'}.`, ok: false };
  return { text: `Exit code ${output.exitCode}`, ok: output.exitCode === 0 };
}

/** What `file` found, in a sentence: "3 entries in /var/log." */
export function listingSummary(listing: FileListing): string {
  return `${entryCount(listing.total)} in ${listing.request.parameters.path}.`;
}

/** Why a command has no answer (offline, silent, refused): the console's message, else a general one. */
export function commandFailureText(error: Error): string {
  return error instanceof ApiRequestError ? error.message : GENERIC_ERROR_MESSAGE;
}
