/**
 * Waits for `work` to settle, or for `ms` to pass, whichever comes first; never rejects. The timer
 * is cleared when the work wins, so a stopping process is not kept alive by it.
 */
export async function waitAtMost(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}
