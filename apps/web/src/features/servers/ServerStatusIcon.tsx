import { serverStatusLabel, type ServerStatus } from '@fleetlink/contract';
import { Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleMinus, IconCircleX, IconHelpCircle } from '@tabler/icons-react';

/** Status icon with its label as tooltip (SPEC §4: Online, Online reject new devices, Offline, Unknown). */
export function ServerStatusIcon({ status }: { status: ServerStatus | string | null | undefined }) {
  const label = serverStatusLabel(status);
  const icon =
    status === 'ONLINE' ? (
      <IconCircleCheck color="var(--mantine-color-green-7)" />
    ) : status === 'ONLINE_REJECT_NEW_DEVICES' ? (
      <IconCircleMinus color="var(--mantine-color-yellow-7)" />
    ) : status === 'OFFLINE' ? (
      <IconCircleX color="var(--mantine-color-red-7)" />
    ) : (
      <IconHelpCircle color="var(--mantine-color-gray-6)" />
    );
  return (
    <Tooltip label={label}>
      <span role="img" aria-label={label} style={{ display: 'inline-flex' }}>
        {icon}
      </span>
    </Tooltip>
  );
}
