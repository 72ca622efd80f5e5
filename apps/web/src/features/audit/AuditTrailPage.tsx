import { Stack, Text, Title } from '@mantine/core';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { operatorAudit } from './audit-api';
import { AuditTrail } from './AuditTrail';

/** /operator/audit (realm ADMIN): everything recorded, sign-ins included. */
export function AuditTrailPage() {
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Audit trail' }]} />
      <Title order={2}>Audit trail</Title>
      <Text size="sm" c="dimmed">
        Every change to devices, organizations and servers, every command and every sign-in at the built-in provider, with who did it and how it
        ended. Entries cannot be changed or deleted.
      </Text>
      <AuditTrail source={operatorAudit} />
    </Stack>
  );
}
