import { RealmRole, type Device } from '@fleetlink/contract';
import { Badge, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { useSession } from '../../../app/auth/useSession';
import { AppBreadcrumbs } from '../../../app/breadcrumbs/AppBreadcrumbs';
import { TabBar } from '../../../app/tab-bar/TabBar';
import { AccessDeniedPage } from '../../access-denied/AccessDeniedPage';
import { NotFoundPage } from '../../not-found/NotFoundPage';
import { DeviceStatusIcon } from '../DeviceStatusIcon';
import { useDevice } from '../device-api';
import { useRecentDevices } from '../recent/useRecentDevices';
import { DeviceSearchBox } from '../search/DeviceSearchBox';
import { deviceCrumbs } from './device-crumbs';
import { deviceTabs, isAdminOnlyPath, redirectFor } from './device-tabs';

/** The device every tab of /devices/{id} renders. */
export const useCurrentDevice = () => useOutletContext<Device>();

/** /devices/{id}: the device is resolved first, then the header, breadcrumbs, tab bar and tab. */
export function DeviceLayout() {
  const { id } = useParams();
  const { pathname } = useLocation();
  const { hasRole } = useSession();
  const { data: device, isLoading, isError } = useDevice(id);
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
  if (isError || !device) return <NotFoundPage />;

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
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {device.name}
          </Title>
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
      <TabBar tabs={tabs} label="Device sections" />
      <Outlet context={device} />
    </Stack>
  );
}
