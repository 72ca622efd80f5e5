import type { DeviceStatusList } from '@fleetlink/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../../../app/api/useApi';
import { DEVICE_REFRESH_MS, deviceKeys } from '../device-api';
import type { RecentDevice } from './recent-devices';
import { useRecentDevices } from './useRecentDevices';

/** A recent device with what the console says of it now (until it answered: as recorded, installed). */
export interface RecentDeviceNow extends RecentDevice {
  installed: boolean;
}

/**
 * The recent devices (cookie) with their status now, asked of the console and refreshed like a
 * device page (issue 59: the menu showed the state of the last visit, and every device as installed).
 * A device the console no longer answers for (deleted, moved out of reach) is forgotten.
 */
export function useRecentDevicesNow(): RecentDeviceNow[] {
  const api = useApi();
  const { devices, remove } = useRecentDevices();
  const ids = devices.map((d) => d.id).sort();
  const status = useQuery({
    queryKey: [...deviceKeys.all, 'status', ids],
    // Quiet: the list shows what it recorded when the console cannot say more.
    queryFn: ({ signal }) => api.request<DeviceStatusList>(`/api/devices-status?${new URLSearchParams({ ids: ids.join(',') })}`, { signal, quiet: true }),
    enabled: ids.length > 0,
    refetchInterval: DEVICE_REFRESH_MS,
  });
  const now = status.data && new Map(status.data.map((s) => [s.id, s]));
  useEffect(() => {
    if (now) devices.filter((d) => !now.has(d.id)).forEach((d) => remove(d.id));
  }, [status.data]); // eslint-disable-line react-hooks/exhaustive-deps
  return devices.flatMap((d) => {
    if (!now) return [{ ...d, installed: true }];
    const s = now.get(d.id);
    return s ? [{ ...d, name: s.name, online: s.online, installed: s.installed }] : [];
  });
}
