import { Button, Card, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { ContactMessagesCard } from '../contact/ContactMessagesCard';
import { CreateInvoicesCard } from '../invoices/CreateInvoicesCard';
import { useReindexDevices } from './device-api';
import { PageTitle } from '../../app/a11y/PageTitle';

/**
 * /operator (realm ADMIN): rebuild the device search index, create the month's invoices, and read
 * what users wrote through the contact form.
 */
export function OperatorPage() {
  const reindex = useReindexDevices();
  return (
    <Stack maw={720}>
      <AppBreadcrumbs items={[{ label: 'Rebuild index' }]} />
      <PageTitle title="Operator" size="h2" />
      <Card withBorder radius="md">
        <Stack align="flex-start">
          <Text size="sm" c="dimmed">
            Rebuilds the full-text search document of every device from its name, description, tags, id, hostname, addresses and
            operating system.
          </Text>
          <Button leftSection={<IconRefresh size={16} />} loading={reindex.isPending} onClick={() => reindex.mutate()}>
            Reindex devices index
          </Button>
          {reindex.data ? (
            <Text size="sm" role="status">
              {reindex.data.indexed === 1 ? '1 device indexed.' : `${reindex.data.indexed} devices indexed.`}
            </Text>
          ) : null}
        </Stack>
      </Card>
      <CreateInvoicesCard />
      <ContactMessagesCard />
    </Stack>
  );
}
