import { Stack, Text } from '@mantine/core';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { operatorAudit } from './audit-api';
import { AuditTrail } from './AuditTrail';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /operator/audit (realm ADMIN): everything recorded, sign-ins included. */
export function AuditTrailPage() {
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Audit trail' }]} />
      <PageTitle title="Audit trail" size="h2" />
      <Text size="sm" c="dimmed">
        Every change to devices, organizations and servers, every command and every sign-in at the built-in provider, with who did it and how it
        ended. Entries cannot be changed or deleted.
      </Text>
      <AuditTrail source={operatorAudit} />
    </Stack>
  );
}
