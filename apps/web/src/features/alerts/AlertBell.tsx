import { ActionIcon, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDayMonthTime } from '../../app/format/date-format';
import { useAlertInbox, useMarkAlertsRead } from './alerts-api';

/** The bell in the top navigation (issue 66): the unread count, the newest alerts, read one or all; live. */
export function AlertBell() {
  const inbox = useAlertInbox();
  const read = useMarkAlertsRead();
  const unread = inbox.data?.unread ?? 0;
  const items = inbox.data?.items ?? [];
  const label = unread ? `Alerts: ${unread} unread` : 'Alerts';
  return (
    <Popover position="bottom-end" width={380} shadow="md" withArrow>
      <Popover.Target>
        <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={!unread} color="red" offset={4}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} data-testid="alert-bell">
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>Alerts</Text>
            <Button size="compact-xs" variant="subtle" disabled={!unread} onClick={() => read.mutate(undefined)}>
              Mark all as read
            </Button>
          </Group>
          {!items.length ? <Text c="dimmed">Nothing yet.</Text> : null}
          <ScrollArea.Autosize mah={400}>
            <Stack gap={6} role="list" aria-label="Alerts">
              {items.map((a) => (
                <UnstyledButton key={a.id} role="listitem" data-testid="alert-notice" onClick={() => !a.read && read.mutate([a.id])} aria-label={`${a.read ? '' : 'Unread: '}${a.summary}`}>
                  <Text size="sm" fw={a.read ? 400 : 600}>
                    {a.summary}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDayMonthTime(new Date(a.createdAt))} · {a.rule.name}
                    {a.organization ? (
                      <>
                        {' · '}
                        <Link to={`/organizations/${a.organization.id}/alerts`}>{a.organization.name}</Link>
                      </>
                    ) : null}
                  </Text>
                </UnstyledButton>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
