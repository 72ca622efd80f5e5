import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCurrentDevice } from './current-device';

/** Edit and Delete are for the creator or an administrator of the device's organization (SPEC §6). */
export function ManagersOnly({ children }: { children: ReactNode }) {
  const device = useCurrentDevice();
  if (device.canManage) return children;
  return (
    <Alert color="yellow" title="Not allowed" maw={640}>
      Only the creator or an administrator of the organization “{device.organization.name}” can change this device.
    </Alert>
  );
}
