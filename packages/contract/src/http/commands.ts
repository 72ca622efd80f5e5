import { z } from 'zod';
import { DEVICE_CALL_ERRORS } from './route-errors.js';
import { fileListingSchema } from './files.js';

/** How much of each output stream the agent keeps (bytes of UTF-8); the rest is counted, not kept. */
export const COMMAND_OUTPUT_MAX_BYTES = 64 * 1024;

/**
 * The answer of POST /api/device/{id}/command: what the command printed, how it ended and how long
 * it took on the device. Output beyond the cap is cut, and `stdoutCut`/`stderrCut` say how many
 * bytes were left out.
 */
export const commandOutputSchema = z.object({
  /** The exit code; null when the process was ended by a signal (`signal` says which). */
  exitCode: z.number().int().nullable(),
  signal: z.string().max(32).nullable(),
  /** True when the command ran past its timeout and its processes were killed. */
  timedOut: z.boolean(),
  stdout: z.string().max(COMMAND_OUTPUT_MAX_BYTES),
  stderr: z.string().max(COMMAND_OUTPUT_MAX_BYTES),
  stdoutCut: z.number().int().nonnegative(),
  stderrCut: z.number().int().nonnegative(),
  durationMs: z.number().int().nonnegative(),
});
export type CommandOutput = z.infer<typeof commandOutputSchema>;

/**
 * What POST /api/device/{id}/command answers: what the command printed, or for the command `file`
 * the folder's listing (SPEC §3 File listing response).
 */
export const commandAnswerSchema = z.union([commandOutputSchema, fileListingSchema]);
export type CommandAnswer = z.infer<typeof commandAnswerSchema>;

/** The commands the agent knows (any other name gets "Unknown command 'x'" from the agent). */
export const CommandName = { Execute: 'execute', Ping: 'ping', Restart: 'restart', Update: 'update' } as const;

export const COMMAND_TIMEOUT_DEFAULT_SECONDS = 30;
export const COMMAND_TIMEOUT_MAX_SECONDS = 300;

/**
 * The `timeout` parameter of a command, in seconds (default 30): the console waits that long (plus
 * the time the answer needs to travel) and the agent kills what still runs after it. Read the same
 * way on both ends; a bad value gets the message, on the console before anything is sent.
 */
export function commandTimeoutSeconds(parameters: Record<string, string>): number | { error: string } {
  const raw = parameters.timeout;
  if (raw === undefined) return COMMAND_TIMEOUT_DEFAULT_SECONDS;
  const seconds = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || seconds < 1 || seconds > COMMAND_TIMEOUT_MAX_SECONDS) {
    return { error: `Timeout must be a whole number of seconds from 1 to ${COMMAND_TIMEOUT_MAX_SECONDS}.` };
  }
  return seconds;
}

export const commandRoutes = {
  run: { method: 'POST', path: '/api/device/:id/command', role: 'USER', errors: DEVICE_CALL_ERRORS },
} as const;
