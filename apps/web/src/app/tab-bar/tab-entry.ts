import type { ComponentType } from 'react';

/** One tab of a TabBar (SPEC §3 "Tab entry"). */
export interface TabEntry {
  routerLink: string;
  label: string;
  /** A Tabler icon component, e.g. IconCpu. */
  icon: ComponentType<{ size?: number | string; stroke?: number | string }>;
  /** Active only on exactly this path; otherwise also on the pages below it. */
  exact?: boolean;
}

/** Whether the tab matches the current path (trailing slashes ignored). */
export function isTabActive(tab: Pick<TabEntry, 'routerLink' | 'exact'>, pathname: string): boolean {
  const strip = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  const link = strip(tab.routerLink);
  const path = strip(pathname);
  if (path === link) return true;
  return !tab.exact && path.startsWith(link === '/' ? '/' : `${link}/`);
}

/** A tabbed page's document title: the open tab's label, then the page's own ("Storage — kiosk-7"). */
export function tabbedTitle(tabs: readonly TabEntry[], pathname: string, page: string): string {
  const open = tabs.find((tab) => isTabActive(tab, pathname));
  return open ? `${open.label} — ${page}` : page;
}
