import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card of label/value rows; rows without a value are left out. */
export function SummaryCard({ title, rows, children }: { title: string; rows?: [string, ReactNode | undefined][]; children?: ReactNode }) {
  const shown = (rows ?? []).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return (
    <Card withBorder radius="md" padding="md" data-testid={`summary-${title.toLowerCase()}`}>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      <Stack gap={4}>
        {shown.map(([label, value], i) => (
          <Group key={`${label}-${i}`} gap="xs" align="flex-start" wrap="nowrap">
            <Text size="sm" c="dimmed" w={150} style={{ flexShrink: 0, overflowWrap: 'anywhere' }}>
              {label}
            </Text>
            <Text size="sm" component="div" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {value}
            </Text>
          </Group>
        ))}
        {children}
        {!shown.length && !children ? (
          <Text size="sm" c="dimmed">
            Not reported by the agent.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
