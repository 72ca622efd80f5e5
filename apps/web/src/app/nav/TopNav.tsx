import { RealmRole } from '@fleetlink/contract';
import { Group } from '@mantine/core';
import { AlertBell } from '../../features/alerts/AlertBell';
import { useSession } from '../auth/useSession';
import { BrandLink } from './BrandLink';
import { DevicesMenu } from './DevicesMenu';
import { HomeLink } from './HomeLink';
import { LoginButton } from './LoginButton';
import { ManageMenu } from './ManageMenu';
import { ProfileMenu } from './ProfileMenu';

/** The top navigation: each entry appears only for the roles that can use it. */
export function TopNav() {
  const session = useSession();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" component="nav" aria-label="Main">
      <Group gap={4} wrap="nowrap" miw={0}>
        <BrandLink />
        <HomeLink />
        {session.hasRole(RealmRole.User) ? <DevicesMenu /> : null}
        {session.hasRole(RealmRole.Admin) ? <ManageMenu /> : null}
      </Group>
      {session.isAuthenticated ? (
        <Group gap={4} wrap="nowrap">
          {session.hasRole(RealmRole.User) ? <AlertBell /> : null}
          <ProfileMenu />
        </Group>
      ) : (
        <LoginButton />
      )}
    </Group>
  );
}
