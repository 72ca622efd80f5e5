import { Menu } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from '../../router/router';

/** A menu entry that navigates inside the console. */
export function MenuLink({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Menu.Item component={Link} to={to} leftSection={icon}>
      {children}
    </Menu.Item>
  );
}
