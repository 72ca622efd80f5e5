import type { Device } from '@fleetlink/contract';
import {
  IconCloudDownload,
  IconEdit,
  IconEye,
  IconFolder,
  IconInfoCircle,
  IconNetwork,
  IconServer2,
  IconTerminal,
  IconTerminal2,
  IconTrash,
} from '@tabler/icons-react';
import { isTabActive, type TabEntry } from '../../../app/tab-bar/tab-entry';

/**
 * The tabs of a device (SPEC §2): with agent properties Summary, Network, Storage, Monitor, Install,
 * Edit, Delete (+ Command, Terminal and Servers for realm ADMIN); without them only Install, Edit, Delete.
 * Edit and Delete only for those who may manage it (issue 59: a USER member's were refused anyway).
 */
export function deviceTabs(device: Pick<Device, 'id' | 'properties' | 'canManage'>, isAdmin: boolean): TabEntry[] {
  const base = `/devices/${device.id}`;
  const install: TabEntry = { routerLink: `${base}/install`, label: 'Install', icon: IconCloudDownload };
  const manage: TabEntry[] = device.canManage
    ? [
        { routerLink: `${base}/edit`, label: 'Edit', icon: IconEdit },
        { routerLink: `${base}/delete`, label: 'Delete', icon: IconTrash },
      ]
    : [];
  if (!device.properties) return [install, ...manage];
  return [
    { routerLink: base, label: 'Summary', icon: IconInfoCircle, exact: true },
    { routerLink: `${base}/tunnels`, label: 'Network', icon: IconNetwork },
    { routerLink: `${base}/file`, label: 'Storage', icon: IconFolder },
    { routerLink: `${base}/monitor`, label: 'Monitor', icon: IconEye },
    install,
    ...manage,
    ...(isAdmin
      ? [
          { routerLink: `${base}/command`, label: 'Command', icon: IconTerminal2 },
          { routerLink: `${base}/terminal`, label: 'Terminal', icon: IconTerminal },
          { routerLink: `${base}/servers`, label: 'Servers', icon: IconServer2 },
        ]
      : []),
  ];
}

/** The tabs for realm ADMIN only (SPEC §2): anyone else gets the access-denied page there, not another tab. */
const ADMIN_TABS = ['command', 'terminal', 'servers'];

export function isAdminOnlyPath(pathname: string, deviceId: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return ADMIN_TABS.some((tab) => path === `/devices/${deviceId}/${tab}` || path.startsWith(`/devices/${deviceId}/${tab}/`));
}

/** Where a user lands on a path whose tab is not visible: the first visible tab, else nowhere. */
export function redirectFor(pathname: string, tabs: TabEntry[]): string | undefined {
  return tabs.some((t) => isTabActive(t, pathname)) ? undefined : tabs[0]?.routerLink;
}

