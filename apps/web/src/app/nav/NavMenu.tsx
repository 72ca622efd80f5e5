import { Button, Menu, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useLocation } from '../../router/router';
import { isSectionActive } from './is-section-active';
import { NAV_HOVER_DEBOUNCE_MS } from './nav-constants';

interface NavMenuProps {
  label: string;
  icon: ReactNode;
  /** Section roots the menu leads to; the menu is highlighted while the user is in one of them. */
  sections: readonly string[];
  children: ReactNode;
}

/** A top navigation menu: opens on hover (debounced) and, for keyboard and touch users, on click. */
export function NavMenu({ label, icon, sections, children }: NavMenuProps) {
  const { pathname } = useLocation();
  const active = isSectionActive(pathname, sections);
  return (
    <Menu
      trigger="click-hover"
      openDelay={NAV_HOVER_DEBOUNCE_MS}
      closeDelay={NAV_HOVER_DEBOUNCE_MS}
      position="bottom-start"
      shadow="md"
      width={240}
    >
      <Menu.Target>
        <Button
          variant={active ? 'light' : 'subtle'}
          color={active ? undefined : 'gray'}
          leftSection={icon}
          rightSection={<IconChevronDown size={14} />}
          px="sm"
          aria-label={label}
        >
          {/* Icons only on phones, so the whole navigation fits the width. */}
          <Text span inherit visibleFrom="sm">
            {label}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
