import { Button, Group, type GroupProps } from '@mantine/core';

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
      <Button type="submit" loading={saving}>
        {submitLabel}
      </Button>
    </Group>
  );
}
