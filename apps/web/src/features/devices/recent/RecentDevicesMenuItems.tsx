import { Menu } from '@mantine/core';
import { Link } from '../../../router/router';
import { DeviceStatusIcon } from '../DeviceStatusIcon';
import { useRecentDevicesNow } from './useRecentDevicesNow';

/** The up to 5 recently opened devices, for the Devices menu (SPEC §2 Navigation). */
export function RecentDevicesMenuItems() {
  const devices = useRecentDevicesNow();
  if (!devices.length) return null;
  return (
    <>
      <Menu.Divider />
      <Menu.Label>Recent devices</Menu.Label>
      {devices.map((d) => (
        <Menu.Item key={d.id} component={Link} to={`/devices/${d.id}`} leftSection={<DeviceStatusIcon online={d.online} installed={d.installed} size={16} />}>
          {d.name}
        </Menu.Item>
      ))}
    </>
  );
}
