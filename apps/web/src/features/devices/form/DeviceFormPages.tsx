import { Center, Loader, Stack } from '@mantine/core';
import { useNavigate } from '../../../router/router';
import { AppBreadcrumbs } from '../../../app/breadcrumbs/AppBreadcrumbs';
import { useCurrentDevice } from '../detail/current-device';
import { useDeviceOrganizations, useDeviceTags, useSaveDevice } from '../device-api';
import { DeviceForm } from './DeviceForm';
import { PageTitle } from '../../../app/a11y/PageTitle';

/** /devices/new: after creation the user goes to the new device (SPEC §4). */
export function DeviceCreatePage() {
  const organizations = useDeviceOrganizations();
  const tags = useDeviceTags();
  const save = useSaveDevice();
  const navigate = useNavigate();
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Devices', to: '/devices' }, { label: 'Create new device' }]} />
      <PageTitle title="Create new device" size="h2" />
      {organizations.data ? (
        <DeviceForm
          organizations={organizations.data}
          tagSuggestions={tags.data ?? []}
          submitLabel="Create device"
          saving={save.isPending}
          onSubmit={(form) => save.mutate(form, { onSuccess: (device) => void navigate(`/devices/${device.id}`) })}
          onCancel={() => void navigate('/devices/search')}
        />
      ) : (
        <Center py="xl">
          <Loader />
        </Center>
      )}
    </Stack>
  );
}

/** /devices/{id}/edit, labelled Update device; cancel or update returns to the device list (SPEC §4). */
export function DeviceEditPage() {
  const device = useCurrentDevice();
  const organizations = useDeviceOrganizations();
  const tags = useDeviceTags();
  const save = useSaveDevice(device.id);
  const navigate = useNavigate();
  if (!organizations.data) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  // The device's own organization stays selectable even where the user may not create devices.
  const options = organizations.data.some((o) => o.id === device.organization.id)
    ? organizations.data
    : [{ id: device.organization.id, type: device.organization.type, name: device.organization.name }, ...organizations.data];
  return (
    <DeviceForm
      initial={{
        organization: device.organization.id,
        name: device.name,
        description: device.description ?? '',
        branch: device.branch,
        tags: device.tags,
      }}
      organizations={options}
      tagSuggestions={tags.data ?? []}
      submitLabel="Update device"
      saving={save.isPending}
      onSubmit={(form) => save.mutate(form, { onSuccess: () => void navigate('/devices/search') })}
      onCancel={() => void navigate('/devices/search')}
    />
  );
}
