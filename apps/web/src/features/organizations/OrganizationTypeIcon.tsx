import type { OrganizationType } from '@fleetlink/contract';
import { Tooltip } from '@mantine/core';
import { IconBuilding, IconUser } from '@tabler/icons-react';

export const organizationTypeLabel: Record<OrganizationType, string> = { PERSONAL: 'Personal', COMPANY: 'Company' };

/** Personal or company icon, with its name as tooltip and accessible label. */
export function OrganizationTypeIcon({ type, size = 20 }: { type: OrganizationType; size?: number }) {
  const Icon = type === 'COMPANY' ? IconBuilding : IconUser;
  return (
    <Tooltip label={organizationTypeLabel[type]}>
      <Icon size={size} aria-label={organizationTypeLabel[type]} role="img" />
    </Tooltip>
  );
}
