import type { MetricsResponse, TimelineResponse } from '@fleetlink/contract';
import { useQuery } from '@tanstack/react-query';
import { quietRefresh } from '../../../app/api/quiet-refresh';
import { useApi } from '../../../app/api/useApi';
import { DEVICE_REFRESH_MS, deviceKeys } from '../device-api';

/** While an online device has not sent its first samples yet, look again sooner than the usual 60 s. */
const FIRST_SAMPLES_RETRY_MS = 10_000;

export const metricKeys = {
  load: (id: string) => [...deviceKeys.detail(id), 'metrics'] as const,
  timeline: (id: string, interval: 'DAY' | 'WEEK') => [...deviceKeys.detail(id), 'timeline', interval] as const,
};

/** GET /api/device/{id}/metrics: systemLoad samples of the last 24 hours. */
export function useDeviceLoad(id: string, online: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: metricKeys.load(id),
    queryFn: (ctx) => api.request<MetricsResponse>(`/api/device/${encodeURIComponent(id)}/metrics`, quietRefresh(ctx)),
    refetchInterval: (query) => (online && !query.state.data?.length ? FIRST_SAMPLES_RETRY_MS : DEVICE_REFRESH_MS),
  });
}

/** GET /api/device/{id}/metrics/TIMELINE?interval=…: online periods (the summary uses WEEK). */
export function useDeviceTimeline(id: string, interval: 'DAY' | 'WEEK' = 'WEEK') {
  const api = useApi();
  return useQuery({
    queryKey: metricKeys.timeline(id, interval),
    queryFn: (ctx) =>
      api.request<TimelineResponse>(`/api/device/${encodeURIComponent(id)}/metrics/TIMELINE?interval=${interval}`, quietRefresh(ctx)),
    refetchInterval: DEVICE_REFRESH_MS,
  });
}
