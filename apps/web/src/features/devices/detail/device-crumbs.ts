import type { Device } from '@fleetlink/contract';
import type { Crumb } from '../../../app/breadcrumbs/AppBreadcrumbs';
import { entityLabel } from '../../../app/format/entity-label';
import { isTabActive, type TabEntry } from '../../../app/tab-bar/tab-entry';

/** What a page below a tab is called in the breadcrumb, by the tab's own segment. */
const SUBPAGES: Record<string, (rest: string, device: Pick<Device, 'monitors'>) => string | undefined> = {
  monitor: (rest, device) => (rest === 'new' ? 'New monitor' : device.monitors.find((m) => m.id === rest)?.name),
  tunnels: (rest) => (rest === 'new' ? 'New tunnel' : 'Update tunnel'),
};

/**
 * The breadcrumb of a device page: Devices / the device / the tab (on Summary, nothing more); a page
 * below a tab (a monitor's form) adds its own name after its tab, which then links back.
 */
export function deviceCrumbs(device: Pick<Device, 'id' | 'name' | 'monitors'>, tabs: TabEntry[], pathname: string): Crumb[] {
  const path = pathname.replace(/\/+$/, '');
  const tab = tabs.find((t) => isTabActive(t, path));
  const crumbs: Crumb[] = [{ label: 'Devices', to: '/devices' }, { label: entityLabel(device), to: tab ? `/devices/${device.id}` : undefined }];
  if (!tab || tab.exact) return crumbs;
  if (path === tab.routerLink) return [...crumbs, { label: tab.label }];
  const [segment = '', rest = ''] = path.slice(`/devices/${device.id}/`.length).split('/');
  const label = SUBPAGES[segment]?.(decodeURIComponent(rest), device);
  return [...crumbs, { label: tab.label, to: tab.routerLink }, ...(label ? [{ label }] : [])];
}
