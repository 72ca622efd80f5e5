import { describe, expect, it } from 'vitest';
import { deviceCrumbs } from './device-crumbs';
import { deviceTabs } from './device-tabs';

const id = '3f2a9c1e-7b44-4d1a-9e0f-2c6b8d5a1f00';
const monitor = { id: '0b5f6d0e-1111-4222-8333-944455556666', name: 'Log size', type: 'SIZE' as const, path: '/x', value: null, note: null, observedAt: null };
const device = { id, name: 'Walk box', properties: {}, canManage: true, monitors: [monitor] };
const tabs = deviceTabs(device, false);
const crumbs = (path: string) => deviceCrumbs(device, tabs, path);

describe('deviceCrumbs', () => {
  it('ends with the device on Summary, and with the tab on a tab', () => {
    expect(crumbs(`/devices/${id}`)).toEqual([{ label: 'Devices', to: '/devices' }, { label: 'Walk box', to: `/devices/${id}` }]);
    expect(crumbs(`/devices/${id}/monitor/`).slice(2)).toEqual([{ label: 'Monitor' }]);
  });

  it('links back to the tab from a page below it, named by what it shows', () => {
    expect(crumbs(`/devices/${id}/monitor/new`).slice(2)).toEqual([{ label: 'Monitor', to: `/devices/${id}/monitor` }, { label: 'New monitor' }]);
    expect(crumbs(`/devices/${id}/monitor/${monitor.id}`).slice(2)).toEqual([{ label: 'Monitor', to: `/devices/${id}/monitor` }, { label: 'Log size' }]);
  });

  it('leaves the device unlinked on a path of no tab', () => {
    expect(crumbs(`/devices/${id}/nowhere`)).toEqual([{ label: 'Devices', to: '/devices' }, { label: 'Walk box', to: undefined }]);
  });
});
