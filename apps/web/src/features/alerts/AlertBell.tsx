import { ActionIcon, Indicator, Loader, Popover } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useAlertInbox } from './alerts-api';

// The list's code comes with the first look at it, not with every page (issue 68's budget).
const AlertInbox = lazy(async () => ({ default: (await import('./AlertInbox')).AlertInbox }));

/** The bell in the top navigation (issue 66): the unread count, the newest alerts, read one or all; live. */
export function AlertBell() {
  const inbox = useAlertInbox();
  const unread = inbox.data?.unread ?? 0;
  const label = unread ? `Alerts: ${unread} unread` : 'Alerts';
  return (
    // The count's badge sits outside the popover's target, which must be the button itself (its
    // aria-expanded is allowed on a button, not on the badge's wrapper).
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={!unread} color="red" offset={4}>
      <Popover position="bottom-end" width={380} shadow="md" withArrow>
        <Popover.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} data-testid="alert-bell">
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Suspense fallback={<Loader size="sm" />}>
            <AlertInbox inbox={inbox.data} />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
