import { UnstyledButton } from '@mantine/core';
import { Link } from '../../router/router';
import type { TabEntry } from './tab-entry';
import classes from './TabBar.module.css';

export function TabLink({ tab, active }: { tab: TabEntry; active: boolean }) {
  const Icon = tab.icon;
  return (
    <UnstyledButton
      component={Link}
      to={tab.routerLink}
      className={classes.tab}
      data-active={active || undefined}
      aria-current={active ? 'page' : undefined}
    >
      <Icon size={16} stroke={1.8} />
      {tab.label}
    </UnstyledButton>
  );
}
