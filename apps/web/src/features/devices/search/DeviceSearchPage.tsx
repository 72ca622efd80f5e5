import { RealmRole } from '@fleetlink/contract';
import { Badge, Button, Center, Group, Loader, Pagination, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link, useSearchParams } from '../../../router/router';
import { useSession } from '../../../app/auth/useSession';
import { AppBreadcrumbs } from '../../../app/breadcrumbs/AppBreadcrumbs';
import { useDeviceSearch } from '../device-api';
import { DeviceCard } from './DeviceCard';
import { shownCount } from './device-count';
import { DeviceSearchBox } from './DeviceSearchBox';
import { ListModeToggle } from './ListModeToggle';
import { useListMode } from './list-mode';
import { SEARCH_PAGE_SIZE, searchPageOf } from './search-page-params';
import { PageTitle } from '../../../app/a11y/PageTitle';

// The list's table (Mantine's Table and ScrollArea, a chunk of their own) loads the first time the
// devices are shown as a list: the grid, the default, does without it (issue 68).
const DeviceTable = lazy(async () => ({ default: (await import('./DeviceTable')).DeviceTable }));

/** /devices/search?tab=&search= (SPEC §2): tabs with counts, list or grid, paged on the server. */
export function DeviceSearchPage() {
  const [params, setParams] = useSearchParams();
  const { tab, search, page, query } = searchPageOf(params);
  const [mode, setMode] = useListMode();
  const session = useSession();
  const { data, isLoading } = useDeviceSearch(query);

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) (v ? next.set(k, v) : next.delete(k));
    setParams(next);
  };
  const totals = data?.totals;
  const shown = totals ? (tab === 'online' ? totals.ONLINE : tab === 'offline' ? totals.OFFLINE : totals.ALL) : 0;
  const pages = Math.ceil(shown / SEARCH_PAGE_SIZE);

  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Devices', to: '/devices' }, { label: 'Find devices' }]} />
      <Group justify="space-between" align="flex-end">
        <PageTitle title="Find devices" size="h2" />
        <Group>
          {session.hasRole(RealmRole.Admin) ? (
            // A fleet job (issue 64) of what this search finds, the tab included.
            <Button
              variant="light"
              leftSection={<IconPlayerPlay size={16} />}
              component={Link}
              to={`/jobs/new?${new URLSearchParams({ ...(search ? { search } : {}), ...(tab !== 'all' ? { status: tab } : {}) })}`}
            >
              Run a command on these devices
            </Button>
          ) : null}
          <ListModeToggle mode={mode} onChange={setMode} />
        </Group>
      </Group>
      <DeviceSearchBox initial={search} />
      <Tabs value={tab} onChange={(v) => update({ tab: v === 'all' || !v ? undefined : v, page: undefined })}>
        <Tabs.List>
          {(
            [
              ['all', 'All', 'ALL'],
              ['online', 'Online', 'ONLINE'],
              ['offline', 'Offline', 'OFFLINE'],
            ] as const
          ).map(([value, label, key]) => (
            <Tabs.Tab
              key={value}
              value={value}
              rightSection={
                <Badge size="sm" variant="light" circle={false}>
                  {totals ? shownCount(totals[key], data.estimated[key]) : '…'}
                </Badge>
              }
            >
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {data && Object.values(data.estimated).some(Boolean) ? (
        <Text size="sm" c="dimmed">
          This search matches many devices: counts above 10,000 are estimated, and rounded.
        </Text>
      ) : null}
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : !data?.devices.length ? (
        <Text c="dimmed" py="lg">
          {search ? `No devices match “${search}”.` : 'No devices here yet.'}
        </Text>
      ) : mode === 'grid' ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="device-grid">
          {data.devices.map((d) => (
            <DeviceCard key={d.id} device={d} />
          ))}
        </SimpleGrid>
      ) : (
        <Suspense
          fallback={
            <Center py="lg">
              <Loader size="sm" aria-label="Loading the list" />
            </Center>
          }
        >
          <DeviceTable devices={data.devices} />
        </Suspense>
      )}
      {pages > 1 ? (
        <Center>
          <Pagination total={pages} value={page} onChange={(p) => update({ page: p > 1 ? String(p) : undefined })} />
        </Center>
      ) : null}
    </Stack>
  );
}
