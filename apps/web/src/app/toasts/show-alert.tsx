import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { AlertTitle } from './AlertTitle';

/** How long an alert stays while nobody points at it or focuses it (issue 59: they used to stay until closed). */
export const ALERT_CLOSE_MS = 10_000;

interface OpenAlert {
  id: string;
  count: number;
  timer?: ReturnType<typeof setTimeout>;
  hovered: boolean;
  focused: boolean;
}

/** The alerts on screen, by message: the same error again counts up on the one shown. */
const open = new Map<string, OpenAlert>();
let sequence = 0;

function closeLater(alert: OpenAlert) {
  clearTimeout(alert.timer);
  if (alert.hovered || alert.focused) return;
  alert.timer = setTimeout(() => notifications.hide(alert.id), ALERT_CLOSE_MS);
}

function body(message: string, count: number) {
  return (
    <>
      {message}
      {count > 1 ? (
        <Text size="xs" c="dimmed" mt={2} data-alert-count>
          {count} times
        </Text>
      ) : null}
    </>
  );
}

/**
 * The alert toast (SPEC §2): header 'Error' with a timestamp, a close button and the message as
 * body. It closes after 10 s, not while the pointer is on it or it holds the focus; an identical
 * error while it is open counts on it ("3 times", the time of the last) instead of stacking another.
 */
export function showAlert(message: string, date: Date = new Date()): void {
  const shown = open.get(message);
  if (shown) {
    shown.count++;
    notifications.update({ id: shown.id, title: <AlertTitle date={date} />, message: body(message, shown.count) });
    closeLater(shown);
    return;
  }
  const alert: OpenAlert = { id: `alert-${++sequence}`, count: 1, hovered: false, focused: false };
  open.set(message, alert);
  // The pointer on it or the focus in it holds it; closeLater starts over once both left.
  const hold = (what: 'hovered' | 'focused', on: boolean) => () => {
    alert[what] = on;
    closeLater(alert);
  };
  notifications.show({
    id: alert.id,
    title: <AlertTitle date={date} />,
    message: body(message, 1),
    color: 'red',
    icon: <IconAlertTriangle size={18} />,
    withCloseButton: true,
    // Closed here (closeLater), so that the focus holds it as the pointer does.
    autoClose: false,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Close alert' },
    // Mantine's role="alert" interrupts whatever a screen reader is saying; an error can wait for
    // it to finish (issue 71: toasts are announced politely).
    'aria-live': 'polite',
    'data-alert': 'error',
    onMouseEnter: hold('hovered', true),
    onMouseLeave: hold('hovered', false),
    onFocusCapture: hold('focused', true),
    onBlurCapture: hold('focused', false),
    onClose: () => {
      clearTimeout(alert.timer);
      if (open.get(message) === alert) open.delete(message);
    },
  });
  closeLater(alert);
}

/** Closes every alert: what went wrong on one page is not news on the next. */
export function hideAlerts(): void {
  for (const alert of open.values()) {
    clearTimeout(alert.timer);
    notifications.hide(alert.id);
  }
  open.clear();
}
