import { describe, expect, it } from 'vitest';
import { deviceTabs, isAdminOnlyPath, redirectFor } from './device-tabs';

const id = '0b1f0868-0000-4000-8000-000000000000';
const labels = (t: { label: string }[]) => t.map((x) => x.label);

describe('device tabs', () => {
  it('shows only Install, Edit and Delete without agent properties', () => {
    const tabs = deviceTabs({ id, properties: null, canManage: true }, true);
    expect(labels(tabs)).toEqual(['Install', 'Edit', 'Delete']);
    expect(redirectFor(`/devices/${id}`, tabs)).toBe(`/devices/${id}/install`);
    expect(redirectFor(`/devices/${id}/tunnels`, tabs)).toBe(`/devices/${id}/install`);
    expect(redirectFor(`/devices/${id}/edit`, tabs)).toBeUndefined();
  });

  it('shows every tab with properties, Command, Terminal and Servers for ADMIN only', () => {
    expect(labels(deviceTabs({ id, properties: {}, canManage: true }, false))).toEqual(['Summary', 'Network', 'Storage', 'Monitor', 'Install', 'Edit', 'Delete']);
    const admin = deviceTabs({ id, properties: {}, canManage: true }, true);
    expect(labels(admin)).toEqual(['Summary', 'Network', 'Storage', 'Monitor', 'Install', 'Edit', 'Delete', 'Command', 'Terminal', 'Servers']);
    expect(redirectFor(`/devices/${id}`, admin)).toBeUndefined();
    expect(redirectFor(`/devices/${id}/tunnels/new`, admin)).toBeUndefined();
    expect(redirectFor(`/devices/${id}/command`, deviceTabs({ id, properties: {}, canManage: true }, false))).toBe(`/devices/${id}`);
  });

  it('shows Edit and Delete only to those who may manage the device, and sends the others on', () => {
    const member = deviceTabs({ id, properties: {}, canManage: false }, false);
    expect(labels(member)).toEqual(['Summary', 'Network', 'Storage', 'Monitor', 'Install']);
    expect(redirectFor(`/devices/${id}/edit`, member)).toBe(`/devices/${id}`);
    expect(labels(deviceTabs({ id, properties: null, canManage: false }, false))).toEqual(['Install']);
  });

  it('knows the tabs that are for realm ADMIN only', () => {
    expect(isAdminOnlyPath(`/devices/${id}/command`, id)).toBe(true);
    expect(isAdminOnlyPath(`/devices/${id}/command/`, id)).toBe(true);
    expect(isAdminOnlyPath(`/devices/${id}/servers`, id)).toBe(true);
    expect(isAdminOnlyPath(`/devices/${id}/terminal`, id)).toBe(true);
    expect(isAdminOnlyPath(`/devices/${id}/commander`, id)).toBe(false);
    expect(isAdminOnlyPath(`/devices/${id}/install`, id)).toBe(false);
    expect(isAdminOnlyPath(`/devices/${id}`, id)).toBe(false);
  });
});
