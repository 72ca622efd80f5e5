import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmModalProps {
  opened: boolean;
  /** The question, e.g. 'Delete file notes.txt?': names from devices wrap anywhere. */
  question: ReactNode;
  confirmLabel?: string;
  pending?: boolean;
  onClose: () => void;
  onConfirm: () => void;
  /** Where tests read the question. */
  questionTestId?: string;
}

/** The 'Please confirm' dialog: a question, Cancel, and the red button that does it. */
export function ConfirmModal({ opened, question, confirmLabel = 'Yes', pending, onClose, onConfirm, questionTestId }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Please confirm" centered>
      <Text mb="lg" style={{ overflowWrap: 'anywhere' }} data-testid={questionTestId}>
        {question}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
