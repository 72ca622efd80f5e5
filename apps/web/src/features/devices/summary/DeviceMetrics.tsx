import { Loader, Text } from '@mantine/core';
import { LoadGraph } from './LoadGraph';
import { WeeklyTimeGrid } from './WeeklyTimeGrid';
import { useDeviceLoad, useDeviceTimeline } from './metrics-api';

function Unavailable({ what }: { what: string }) {
  return (
    <Text size="sm" c="dimmed" mt="sm">
      The {what} could not be loaded.
    </Text>
  );
}

/** Network card: the weekly time grid of online periods. */
export function DeviceTimeline({ deviceId }: { deviceId: string }) {
  const timeline = useDeviceTimeline(deviceId, 'WEEK');
  if (timeline.isPending) return <Loader size="xs" mt="sm" />;
  if (timeline.isError) return <Unavailable what="online periods" />;
  return <WeeklyTimeGrid entries={timeline.data} />;
}

/** Processor card: the load graph. */
export function DeviceLoad({ deviceId, online }: { deviceId: string; online: boolean }) {
  const load = useDeviceLoad(deviceId, online);
  if (load.isPending) return <Loader size="xs" mt="sm" />;
  if (load.isError) return <Unavailable what="load samples" />;
  return <LoadGraph samples={load.data} />;
}
