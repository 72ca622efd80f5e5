import { Group, Text } from '@mantine/core';
import { formatDateTime } from '../format/date-format';

/** Header of the alert toast: 'Error' and when it happened. */
export function AlertTitle({ date }: { date: Date }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text fw={600} size="sm">
        Error
      </Text>
      <Text size="xs" c="dimmed" data-alert-time>
        {formatDateTime(date)}
      </Text>
    </Group>
  );
}
