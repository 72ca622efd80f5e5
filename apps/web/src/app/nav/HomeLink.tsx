import { Button, Text } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { NavLink } from '../../router/router';

export function HomeLink() {
  return (
    <NavLink to="/" end style={{ textDecoration: 'none' }} aria-label="Home">
      {({ isActive }) => (
        <Button
          component="span"
          variant={isActive ? 'light' : 'subtle'}
          color={isActive ? undefined : 'gray'}
          leftSection={<IconHome size={18} />}
          px="sm"
        >
          <Text span inherit visibleFrom="sm">
            Home
          </Text>
        </Button>
      )}
    </NavLink>
  );
}
