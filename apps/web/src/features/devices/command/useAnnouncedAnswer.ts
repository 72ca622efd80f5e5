import type { CommandAnswer, CommandForm } from '@fleetlink/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { announce } from '../../../app/a11y/announcer';
import { commandFailureText, listingSummary, outcome } from './command-output';

/** How much of the output is read out: the start of it; the page shows all. */
const SPOKEN_OUTPUT_CHARS = 300;

/** The words a screen reader says when the device answers: how it ended and the start of its output. */
export function spokenAnswer(name: string, answer: CommandAnswer): string {
  if ('files' in answer) return `${name}: ${listingSummary(answer)}`;
  const out = answer.stdout.trim() || answer.stderr.trim();
  const start = out.length > SPOKEN_OUTPUT_CHARS ? `${out.slice(0, SPOKEN_OUTPUT_CHARS)}…` : out;
  return `${name}: ${outcome(answer).text}.${start ? ` ${start}` : ''}`;
}

/**
 * Says the command's answer, or why there is none, in the live region when it comes (issue 71):
 * the Run button keeps the focus, so nothing else would tell a screen-reader user it arrived.
 */
export function useAnnouncedAnswer(run: UseMutationResult<CommandAnswer, Error, CommandForm>): void {
  const name = run.variables?.name ?? '';
  useEffect(() => {
    if (run.data) announce(spokenAnswer(name, run.data));
  }, [run.data]); // eslint-disable-line react-hooks/exhaustive-deps -- once per answer
  useEffect(() => {
    if (run.error) announce(`${name} failed: ${commandFailureText(run.error)}`);
  }, [run.error]); // eslint-disable-line react-hooks/exhaustive-deps -- once per failure
}
