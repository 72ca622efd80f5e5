import { RealmRole } from '@fleetlink/contract';
import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconBuilding, IconChevronDown, IconKey, IconLogout, IconSettings } from '@tabler/icons-react';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useSession } from '../auth/useSession';
import { usePublicConfig } from '../startup/usePublicConfig';
import { initials } from './initials';
import { MenuLink } from './MenuLink';
import { NAV_HOVER_DEBOUNCE_MS } from './nav-constants';

/** The signed-in user's menu: who they are, their organizations (USER), their API tokens and Logout. */
export function ProfileMenu() {
  const session = useSession();
  // Name and password are the console's to change only with its built-in sign-in (issue 72).
  const { accounts } = usePublicConfig();
  const me = useCurrentUser(session.isAuthenticated).data;
  // The API's view of the user when loaded; the ID token's profile until then (or if it failed).
  const name = me?.name ?? session.name ?? me?.username ?? session.username ?? 'Signed in';
  const username = me?.username ?? session.username ?? '';

  return (
    <Menu
      trigger="click-hover"
      openDelay={NAV_HOVER_DEBOUNCE_MS}
      closeDelay={NAV_HOVER_DEBOUNCE_MS}
      position="bottom-end"
      shadow="md"
      width={260}
    >
      <Menu.Target>
        {/* Named by its text, "Profile: {name}", not by an aria-label: the visible name is then part
            of it (WCAG 2.5.3), and the initials, which only repeat the name, are not read out. */}
        <UnstyledButton data-testid="profile-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={32} aria-hidden>
              {initials(name)}
            </Avatar>
            <span className="visually-hidden">Profile: {name}</span>
            <Text size="sm" fw={500} visibleFrom="sm" truncate maw={180} aria-hidden>
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Box px="sm" py={6}>
          <Text size="sm" fw={600} data-testid="profile-name">
            {name}
          </Text>
          <Text size="xs" c="dimmed" data-testid="profile-username">
            {username}
          </Text>
        </Box>
        <Menu.Divider />
        {session.hasRole(RealmRole.User) ? (
          <MenuLink to="/organizations" icon={<IconBuilding size={16} />}>
            My Organizations
          </MenuLink>
        ) : null}
        {accounts ? (
          <MenuLink to="/profile/account" icon={<IconSettings size={16} />}>
            My account
          </MenuLink>
        ) : null}
        <MenuLink to="/profile/api-tokens" icon={<IconKey size={16} />}>
          API tokens
        </MenuLink>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void session.signOut()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
