import { Button, Loader, type ButtonProps } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';

interface BusyButtonProps extends ButtonProps {
  /** The action it started is under way: it shows a spinner and does nothing more until it ends. */
  busy: boolean;
  type?: 'button' | 'submit';
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
}

/**
 * A button for a long action (Run, Save) that keeps the keyboard focus while the action runs
 * (issue 71, WCAG 2.4.3): Mantine's `loading` disables the button, and a disabled button drops the
 * focus to <body>. This one stays focusable, says it is busy (aria-disabled), and ignores presses.
 */
export function BusyButton({ busy, type = 'button', onClick, leftSection, children, ...props }: BusyButtonProps) {
  return (
    <Button
      {...props}
      type={type}
      aria-disabled={busy || undefined}
      data-busy={busy || undefined}
      leftSection={busy ? <Loader size={14} color="currentColor" /> : leftSection}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        // preventDefault also stops a submit button's form from being sent again.
        if (busy) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {children}
    </Button>
  );
}
