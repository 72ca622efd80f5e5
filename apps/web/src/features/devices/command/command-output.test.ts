import { describe, expect, it } from 'vitest';
import type { FileListing } from '@fleetlink/contract';
import { ApiRequestError, GENERIC_ERROR_MESSAGE } from '../../../app/api/api-error';
import { commandFailureText, cutNote, formatDuration, listingSummary, outcome } from './command-output';

const base = { exitCode: 0, signal: null, timedOut: false, stdout: '', stderr: '', stdoutCut: 0, stderrCut: 0, durationMs: 5 };

describe('command output texts', () => {
  it('gives durations in ms below a second and in seconds above', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(1000)).toBe('1.0 s');
    expect(formatDuration(30_049)).toBe('30.0 s');
  });

  it('says how much output was cut, in base 1024', () => {
    expect(cutNote(0)).toBeUndefined();
    expect(cutNote(500)).toBe('Output cut: 500 bytes more not shown.');
    expect(cutNote(4_934_464)).toBe('Output cut: 4.7 MB more not shown.');
  });

  it('tells how the command ended', () => {
    expect(outcome(base)).toEqual({ text: 'Exit code 0', ok: true });
    expect(outcome({ ...base, exitCode: 3 })).toEqual({ text: 'Exit code 3', ok: false });
    expect(outcome({ ...base, exitCode: null, signal: 'SIGKILL', timedOut: true }).text).toMatch(/^Stopped at its timeout/);
    expect(outcome({ ...base, exitCode: null, signal: 'SIGSEGV' })).toEqual({ text: 'Ended by signal SIGSEGV.', ok: false });
  });

  it('says what a listing holds, one entry or many, and why a command has no answer', () => {
    const listing = (total: number) => ({ total, request: { parameters: { path: '/var/log' } } }) as unknown as FileListing;
    expect(listingSummary(listing(1))).toBe('1 entry in /var/log.');
    expect(listingSummary(listing(12))).toBe('12 entries in /var/log.');
    expect(commandFailureText(new ApiRequestError(503, 'DEVICE_OFFLINE', 'The device is offline.'))).toBe('The device is offline.');
    expect(commandFailureText(new Error('boom'))).toBe(GENERIC_ERROR_MESSAGE);
  });
});
