import { Tooltip } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleDashed, IconCircleXFilled } from '@tabler/icons-react';

/** Status labels of SPEC §4: without properties the agent is not installed yet. */
export function deviceStatusLabel(online: boolean, installed: boolean): string {
  if (!installed) return 'Agent not installed';
  return online ? 'Online' : 'Offline';
}

export function DeviceStatusIcon({ online, installed, size = 20 }: { online: boolean; installed: boolean; size?: number }) {
  const label = deviceStatusLabel(online, installed);
  const Icon = !installed ? IconCircleDashed : online ? IconCircleCheckFilled : IconCircleXFilled;
  const color = !installed ? 'var(--mantine-color-gray-6)' : online ? 'var(--mantine-color-green-7)' : 'var(--mantine-color-red-7)';
  return (
    <Tooltip label={label} withinPortal>
      <Icon size={size} color={color} aria-label={label} role="img" style={{ flexShrink: 0 }} />
    </Tooltip>
  );
}
