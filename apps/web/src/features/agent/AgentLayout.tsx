import { Stack } from '@mantine/core';
import { IconPackage, IconRocket } from '@tabler/icons-react';
import { Outlet, useLocation } from '../../router/router';
import { TabBar } from '../../app/tab-bar/TabBar';
import { tabbedTitle, type TabEntry } from '../../app/tab-bar/tab-entry';
import { PageTitle } from '../../app/a11y/PageTitle';

const tabs: TabEntry[] = [
  { routerLink: '/agent/bundles', label: 'Bundles', icon: IconPackage },
  { routerLink: '/agent/releases', label: 'Releases', icon: IconRocket },
];

/** /agent/bundles and /agent/releases: the title and the two tabs around them. */
export function AgentLayout() {
  const { pathname } = useLocation();
  return (
    <Stack>
      <PageTitle title={tabbedTitle(tabs, pathname, 'Bundles and Releases')} size="h2">
        Bundles and Releases
      </PageTitle>
      <TabBar tabs={tabs} label="Agent sections" />
      <Outlet />
    </Stack>
  );
}
