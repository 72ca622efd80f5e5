import { IconBell, IconHistory, IconListCheck, IconPackage, IconRefresh, IconServer2, IconSettings, IconUsers } from '@tabler/icons-react';
import { usePublicConfig } from '../startup/usePublicConfig';
import { MenuLink } from './MenuLink';
import { NavMenu } from './NavMenu';

/** Manage menu (role ADMIN). */
export function ManageMenu() {
  // People only while the built-in provider signs people in: an external one keeps its own accounts.
  const { accounts } = usePublicConfig();
  return (
    <NavMenu label="Manage" icon={<IconSettings size={18} />} sections={['/operator', '/servers', '/agent', '/jobs']}>
      <MenuLink to="/operator" icon={<IconRefresh size={16} />}>
        Rebuild index
      </MenuLink>
      <MenuLink to="/operator/audit" icon={<IconHistory size={16} />}>
        Audit trail
      </MenuLink>
      <MenuLink to="/operator/alerts" icon={<IconBell size={16} />}>
        Alerts
      </MenuLink>
      {accounts ? (
        <MenuLink to="/operator/people" icon={<IconUsers size={16} />}>
          People
        </MenuLink>
      ) : null}
      <MenuLink to="/servers" icon={<IconServer2 size={16} />}>
        Servers
      </MenuLink>
      <MenuLink to="/agent" icon={<IconPackage size={16} />}>
        Bundles and Releases
      </MenuLink>
      <MenuLink to="/jobs" icon={<IconListCheck size={16} />}>
        Jobs
      </MenuLink>
    </NavMenu>
  );
}
