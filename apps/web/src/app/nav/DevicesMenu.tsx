import { IconDevices, IconPlus, IconSearch } from '@tabler/icons-react';
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
      {/* Slot: the devices capability lists the up to 5 recently opened devices here, under a
          divider, linking to /devices/{id}. */}
    </NavMenu>
  );
}
