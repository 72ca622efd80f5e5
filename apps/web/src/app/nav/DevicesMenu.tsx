import { IconDevices, IconPlus, IconSearch } from '@tabler/icons-react';
import { RecentDevicesMenuItems } from '../../features/devices/recent/RecentDevicesMenuItems';
import { MenuLink } from './MenuLink';
import { NavMenu } from './NavMenu';

/** Devices menu (role USER). */
export function DevicesMenu() {
  return (
    <NavMenu label="Devices" icon={<IconDevices size={18} />} sections={['/devices']}>
      <MenuLink to="/devices/search" icon={<IconSearch size={16} />}>
        Find devices
      </MenuLink>
      <MenuLink to="/devices/new" icon={<IconPlus size={16} />}>
        Create new device
      </MenuLink>
      {/* The up to 5 recently opened devices, under a divider, linking to /devices/{id}. */}
      <RecentDevicesMenuItems />
    </NavMenu>
  );
}
