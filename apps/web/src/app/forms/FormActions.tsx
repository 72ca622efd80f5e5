import { Button, Group, type GroupProps } from '@mantine/core';
import { BusyButton } from './BusyButton';

interface FormActionsProps {
  onCancel: () => void;
  saving: boolean;
  submitLabel: string;
  justify?: GroupProps['justify'];
}

/** The Cancel and submit buttons every console form ends with. */
export function FormActions({ onCancel, saving, submitLabel, justify }: FormActionsProps) {
  return (
    <Group justify={justify}>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <BusyButton type="submit" busy={saving}>
        {submitLabel}
      </BusyButton>
    </Group>
  );
}
