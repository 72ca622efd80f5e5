import { afterNextPaint } from '../startup/after-paint';

/** The navigation (history entry) whose page has had its heading focused already. */
let arrivedAt: string | undefined;

/** True while someone is typing or working in a dialog: their focus is not taken away. */
function busyElsewhere(active: Element | null): boolean {
  if (!active || active === document.body) return false;
  if (active.closest('[role="dialog"]')) return true;
  return active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement || (active as HTMLElement).isContentEditable;
}

/**
 * Moves focus to a page's heading the first time one appears after a navigation (`key`, the history
 * entry's), sign-in included: the link that led there is gone, and focus would fall to <body>.
 * A heading that appears later on the same entry (a device that loaded, then was deleted) does not
 * take it again.
 */
export function focusOnArrival(heading: HTMLElement, key: string): void {
  if (arrivedAt === key) return;
  arrivedAt = key;
  // Once the new page has been painted: focusing makes the browser lay out the page at once, inside
  // the task that rendered it (on a phone's first load, one long task more, issue 68); a frame
  // later its layout is done, and focusing costs nothing.
  afterNextPaint(() => {
    if (!heading.isConnected || busyElsewhere(document.activeElement)) return;
    heading.focus({ preventScroll: true });
  });
}

/**
 * After a move within a page that keeps its heading (a device's tabs, a form sent that leads back to
 * its list), the control that was pressed may be gone with the part of the page it was in: focus
 * would fall to <body>, so it goes to the page's heading instead. A tab pressed stays focused.
 */
export function refocusLostFocus(): void {
  if (document.activeElement && document.activeElement !== document.body) return;
  document.querySelector<HTMLElement>('[data-page-heading]')?.focus({ preventScroll: true });
}
