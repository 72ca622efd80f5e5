import type { Monitor } from '@fleetlink/contract';
import { Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { monitorValueText } from './monitor-value';

/**
 * A monitor's value by its type; the agent's note (why there is no value, or why it is partial)
 * shows on hover. Text from the device is rendered as text.
 */
export function MonitorValue({ monitor, size = 'sm' }: { monitor: Pick<Monitor, 'type' | 'value' | 'note'>; size?: 'sm' | 'lg' }) {
  const text = (
    <Text size={size} fw={size === 'lg' ? 600 : undefined} style={{ overflowWrap: 'anywhere' }} data-testid="monitor-value">
      {monitorValueText(monitor)}
    </Text>
  );
  if (!monitor.note) return text;
  return (
    <Tooltip label={monitor.note} multiline maw={360} withArrow>
      <Group gap={4} wrap="nowrap" style={{ cursor: 'help' }} aria-label={monitor.note} data-testid="monitor-note">
        {text}
        <IconInfoCircle size={16} color="var(--mantine-color-dimmed)" aria-hidden />
      </Group>
    </Tooltip>
  );
}
