import { Stack, Title } from '@mantine/core';
import { IconPackage, IconRocket } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { TabBar } from '../../app/tab-bar/TabBar';
import type { TabEntry } from '../../app/tab-bar/tab-entry';

const tabs: TabEntry[] = [
  { routerLink: '/agent/bundles', label: 'Bundles', icon: IconPackage },
  { routerLink: '/agent/releases', label: 'Releases', icon: IconRocket },
];

/** /agent/bundles and /agent/releases: the title and the two tabs around them. */
export function AgentLayout() {
  return (
    <Stack>
      <Title order={2}>Bundles and Releases</Title>
      <TabBar tabs={tabs} label="Agent sections" />
      <Outlet />
    </Stack>
  );
}
