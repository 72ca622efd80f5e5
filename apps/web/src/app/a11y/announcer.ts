/**
 * One polite live region for the whole console (WCAG 4.1.3): a page's title after a route change, a
 * command's answer, a form's errors. Screen readers read what is put in it without moving focus.
 */
type Listener = (text: string) => void;
const listeners = new Set<Listener>();

export function announce(text: string): void {
  for (const listener of listeners) listener(text);
}

export function onAnnouncement(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
