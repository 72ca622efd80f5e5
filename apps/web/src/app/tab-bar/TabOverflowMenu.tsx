import { ActionIcon, Box, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { Ref } from 'react';
import { Link } from '../../router/router';
import { isTabActive, type TabEntry } from './tab-entry';
import classes from './TabBar.module.css';

interface TabOverflowMenuProps {
  tabs: TabEntry[];
  pathname: string;
  /** Set by OverflowList to measure whether the menu itself still fits. */
  ref?: Ref<HTMLDivElement>;
}

/** The three-dots menu holding the tabs that do not fit; highlighted when the active tab is in it. */
export function TabOverflowMenu({ tabs, pathname, ref }: TabOverflowMenuProps) {
  const activeHidden = tabs.some((tab) => isTabActive(tab, pathname));
  return (
    <Box ref={ref} className={classes.overflow}>
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <ActionIcon
            variant={activeHidden ? 'filled' : 'subtle'}
            color={activeHidden ? undefined : 'gray'}
            size="lg"
            aria-label="More tabs"
            data-active={activeHidden || undefined}
          >
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {tabs.map((tab) => {
            const Icon = tab.icon;
            const active = isTabActive(tab, pathname);
            return (
              <Menu.Item
                key={tab.routerLink}
                component={Link}
                to={tab.routerLink}
                leftSection={<Icon size={16} />}
                color={active ? 'indigo' : undefined}
                data-active={active || undefined}
                aria-current={active ? 'page' : undefined}
              >
                {tab.label}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}
