import { Button } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { NavLink } from 'react-router';

export function HomeLink() {
  return (
    <NavLink to="/" end style={{ textDecoration: 'none' }}>
      {({ isActive }) => (
        <Button
          component="span"
          variant={isActive ? 'light' : 'subtle'}
          color={isActive ? undefined : 'gray'}
          leftSection={<IconHome size={18} />}
          px="sm"
        >
          Home
        </Button>
      )}
    </NavLink>
  );
}
