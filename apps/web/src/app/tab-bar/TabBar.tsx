import { OverflowList } from '@mantine/core';
import { useLocation } from '../../router/router';
import { isTabActive, type TabEntry } from './tab-entry';
import classes from './TabBar.module.css';
import { TabLink } from './TabLink';
import { TabOverflowMenu } from './TabOverflowMenu';

/** Space between tabs, in px. */
export const TAB_SPACING_PX = 16;

/**
 * Navigation tabs of a page (device, organization, agent). Mantine's OverflowList measures the
 * available width and moves the tabs that do not fit into the three-dots menu, re-measuring when
 * the window is resized.
 */
export function TabBar({ tabs, label = 'Sections' }: { tabs: TabEntry[]; label?: string }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={label} className={classes.bar}>
      <OverflowList
        data={tabs}
        gap={TAB_SPACING_PX}
        getItemKey={(tab: TabEntry) => tab.routerLink}
        renderItem={(tab: TabEntry) => <TabLink tab={tab} active={isTabActive(tab, pathname)} />}
        renderOverflow={(hidden: TabEntry[]) => <TabOverflowMenu tabs={hidden} pathname={pathname} />}
      />
    </nav>
  );
}
