/**
 * Follows a one-time link the console answered (a file download, an audit export): the browser
 * navigates to it and saves the attachment as it streams, so the page stays. Only a link of the
 * console's own, under `prefix`, is ever navigated to.
 */
export function openConsoleLink(answer: unknown, prefix: string): void {
  if (typeof answer !== 'string' || !answer.startsWith(prefix)) throw new Error(`Not a link under ${prefix}: ${String(answer)}`);
  window.location.assign(answer);
}
