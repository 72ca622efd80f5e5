import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { ConfirmModal } from './ConfirmModal';

interface ConfirmButtonProps extends ButtonProps {
  /** The question, e.g. 'Revoke domain example.com?'. */
  question: string;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown> | void;
  children: ReactNode;
  'aria-label'?: string;
  /** Where tests read the question. */
  questionTestId?: string;
}

/** A button that asks first; the action runs only after 'Yes' in the dialog. */
export function ConfirmButton({ question, confirmLabel = 'Yes', onConfirm, children, questionTestId, ...button }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button {...button} onClick={open}>
        {children}
      </Button>
      <ConfirmModal
        opened={opened}
        question={question}
        questionTestId={questionTestId}
        confirmLabel={confirmLabel}
        onClose={close}
        onConfirm={async () => {
          close();
          await Promise.resolve(onConfirm()).catch(() => {});
        }}
      />
    </>
  );
}
