import { Button, Group, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from '../../router/router';
import { formatDayMonthTime } from '../../app/format/date-format';
import type { AlertInbox as Inbox } from '@fleetlink/contract';
import { useMarkAlertsRead } from './alerts-api';

/** The bell's list: the newest alerts, each read by a click, or all at once. Loaded when first opened. */
export function AlertInbox({ inbox }: { inbox: Inbox | undefined }) {
  const read = useMarkAlertsRead();
  const unread = inbox?.unread ?? 0;
  const items = inbox?.items ?? [];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={600}>Alerts</Text>
        <Button size="compact-xs" variant="subtle" disabled={!unread} onClick={() => read.mutate(undefined)}>
          Mark all as read
        </Button>
      </Group>
      {!items.length ? <Text c="dimmed">Nothing yet.</Text> : null}
      <ScrollArea.Autosize mah={400}>
        {/* A list of alerts; in each, a button that marks it read and, apart from it, the link
            to its organization (a link inside a button is neither for a screen reader). */}
        <Stack gap={6} component="ul" aria-label="Alerts" m={0} p={0} style={{ listStyle: 'none' }}>
          {items.map((a) => (
            <li key={a.id} data-testid="alert-notice">
              <UnstyledButton onClick={() => !a.read && read.mutate([a.id])} aria-label={`${a.read ? '' : 'Unread: '}${a.summary}`}>
                <Text size="sm" fw={a.read ? 400 : 600}>
                  {a.summary}
                </Text>
              </UnstyledButton>
              <Text size="xs" c="dimmed">
                {formatDayMonthTime(new Date(a.createdAt))} · {a.rule.name}
                {a.organization ? (
                  <>
                    {' · '}
                    <Link to={`/organizations/${a.organization.id}/alerts`}>{a.organization.name}</Link>
                  </>
                ) : null}
              </Text>
            </li>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
