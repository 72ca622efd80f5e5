import { useEffect } from 'react';
import { announce } from './announcer';

/** Mantine names a field's message `${field id}-error`, and points the field's aria-describedby at it. */
function fieldMessages(form: HTMLFormElement): string[] {
  const messages: string[] = [];
  for (const field of form.querySelectorAll('[aria-invalid="true"]')) {
    for (const id of (field.getAttribute('aria-describedby') ?? '').split(/\s+/)) {
      const text = id.endsWith('-error') ? document.getElementById(id)?.textContent?.trim() : undefined;
      if (text) messages.push(text);
    }
  }
  return messages;
}

/**
 * A form sent with fields still wrong says so in the live region (issue 71, WCAG 3.3.1): which
 * messages, in the page's order. One listener for every form of the console, dialogs included.
 */
export function useAnnouncedFormErrors(): void {
  useEffect(() => {
    const onSubmit = (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      // After React has shown what the validation found.
      setTimeout(() => {
        const messages = fieldMessages(form);
        if (messages.length) announce(`${messages.length === 1 ? 'One field needs' : `${messages.length} fields need`} a change: ${messages.join(' ')}`);
      }, 50);
    };
    document.addEventListener('submit', onSubmit, true);
    return () => document.removeEventListener('submit', onSubmit, true);
  }, []);
}
