import { RealmRole } from '@fleetlink/contract';
import { Anchor, Badge, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useParams } from '../../../router/router';
import { ApiRequestError } from '../../../app/api/api-error';
import { useSession } from '../../../app/auth/useSession';
import { AppBreadcrumbs } from '../../../app/breadcrumbs/AppBreadcrumbs';
import { TabBar } from '../../../app/tab-bar/TabBar';
import { tabbedTitle } from '../../../app/tab-bar/tab-entry';
import { AccessDeniedPage } from '../../access-denied/AccessDeniedPage';
import { NotFoundPage } from '../../not-found/NotFoundPage';
import { DeviceStatusIcon } from '../DeviceStatusIcon';
import { isDeviceGone, useDevice } from '../device-api';
import { useRecentDevices } from '../recent/useRecentDevices';
import { DeviceSearchBox } from '../search/DeviceSearchBox';
import { deviceCrumbs } from './device-crumbs';
import { deviceTabs, isAdminOnlyPath, redirectFor } from './device-tabs';
import { PageTitle } from '../../../app/a11y/PageTitle';

/** What went wrong, in a sentence: the console's message, or that it did not answer (a network failure, a restart). */
const failureText = (error: Error) => (error instanceof ApiRequestError ? error.message : 'The console did not answer.');

function DeviceDeleted({ name }: { name: string }) {
  return (
    <Stack gap="sm" py="xl" maw={640} data-testid="device-deleted">
      <PageTitle title="This device was deleted" />
      <Text c="dimmed">
        {name} was deleted (or moved out of your organizations) while this page was open.
      </Text>
      <Anchor component={Link} to="/devices">
        Back to devices
      </Anchor>
    </Stack>
  );
}

function CouldNotLoad({ message }: { message: string }) {
  return (
    <Stack gap="sm" py="xl" maw={640}>
      <PageTitle title="The device could not be loaded" />
      <Text c="dimmed">{message} Reload the page to try again.</Text>
    </Stack>
  );
}

/** /devices/{id}: the device is resolved first, then the header, breadcrumbs, tab bar and tab. */
export function DeviceLayout() {
  const { id } = useParams();
  const { pathname } = useLocation();
  const { hasRole } = useSession();
  const { data: device, isLoading, error } = useDevice(id);
  const { record } = useRecentDevices();

  useEffect(() => {
    if (device) record({ id: device.id, name: device.name, online: device.online });
  }, [device?.id, device?.name, device?.online, record]); // eslint-disable-line react-hooks/exhaustive-deps

  if (isLoading) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (!device) return isDeviceGone(error) || !error ? <NotFoundPage /> : <CouldNotLoad message={failureText(error)} />;
  // Shown before, gone now: said once, and asked for no more (useDevice); its tabs would only fail.
  if (isDeviceGone(error)) return <DeviceDeleted name={device.name} />;

  const isAdmin = hasRole(RealmRole.Admin);
  if (!isAdmin && isAdminOnlyPath(pathname, device.id)) return <AccessDeniedPage />;
  const tabs = deviceTabs(device, isAdmin);
  const redirect = redirectFor(pathname, tabs);
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <Stack gap="md">
      <AppBreadcrumbs items={deviceCrumbs(device, tabs, pathname)} />
      <DeviceSearchBox />
      <Group gap="sm" wrap="nowrap" align="center">
        <DeviceStatusIcon online={device.online} installed={device.properties !== null} size={28} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <PageTitle title={tabbedTitle(tabs, pathname, device.name)} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {device.name}
          </PageTitle>
          <Text size="sm" c="dimmed" ff="monospace" data-testid="device-id">
            {device.id}
          </Text>
        </Stack>
      </Group>
      {device.tags.length ? (
        <Group gap={6} aria-label="Tags">
          {device.tags.map((t) => (
            <Badge key={t} variant="light" tt="none">
              {t}
            </Badge>
          ))}
        </Group>
      ) : null}
      {error ? (
        <Text size="sm" c="orange" role="status" data-testid="device-refresh-failed">
          Could not refresh: {failureText(error)} The page shows the device as it was at its last refresh; it is tried again every minute.
        </Text>
      ) : null}
      <TabBar tabs={tabs} label="Device sections" />
      <Outlet context={device} />
    </Stack>
  );
}
