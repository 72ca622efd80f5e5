import { Text } from '@mantine/core';
import { useParams } from '../../router/router';
import { organizationAudit } from './audit-api';
import { AuditTrail } from './AuditTrail';

/** /organizations/{id}/activity (the organization's CREATOR and ADMIN): what was done to it and its devices. */
export function OrganizationActivityPage() {
  const { id = '' } = useParams();
  return (
    <>
      <Text size="sm" c="dimmed">
        Changes to this organization, its members, domains and devices, and the commands run on its devices.
      </Text>
      <AuditTrail source={organizationAudit(id)} />
    </>
  );
}
