import { Badge, Group, Text } from '@mantine/core';
import type { ReleaseStanding } from '@fleetlink/contract';

/** Where a release (or one wave of its rollout) stands on devices: the counts that are not zero, each in words. */
export function StandingBadges({ devices }: { devices: ReleaseStanding }) {
  const parts = [
    { n: devices.running, label: 'running', color: 'teal' },
    { n: devices.updating, label: 'updating', color: 'blue' },
    { n: devices.failed, label: 'failed', color: 'red' },
    { n: devices.waiting, label: 'waiting', color: 'gray' },
  ].filter((p) => p.n > 0);
  if (!parts.length) return <Text size="sm" c="dimmed">none</Text>;
  return (
    <Group gap={4}>
      {parts.map((p) => (
        <Badge key={p.label} variant="light" color={p.color} tt="none">
          {p.n} {p.label}
        </Badge>
      ))}
    </Group>
  );
}
