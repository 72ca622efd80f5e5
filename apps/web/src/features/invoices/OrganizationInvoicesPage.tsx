import { formatEuroCents, formatInvoiceDate, type Invoice } from '@fleetlink/contract';
import { Button, Stack, Table, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useParams } from '../../router/router';
import { useOrganization } from '../organizations/organization-api';
import { useInvoicePdf } from './invoice-api';

/** Invoices tab (SPEC §2): number, invoice date, total in EUR, PDF button; for every member. */
export function OrganizationInvoicesPage() {
  const { id = '' } = useParams();
  const { data } = useOrganization(id);
  const pdf = useInvoicePdf(id);
  if (!data) return null;
  if (!data.invoices.length) {
    return (
      <Text c="dimmed" data-testid="no-invoices">
        No invoices yet. Each month, the organizations that had devices get an invoice for the month before.
      </Text>
    );
  }
  const downloading = (invoice: Invoice) => pdf.isPending && pdf.variables?.id === invoice.id;
  return (
    <Stack>
      <Table verticalSpacing="sm" aria-label="Invoices">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Invoice date</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.invoices.map((invoice) => (
            <Table.Tr key={invoice.id} data-testid="invoice-row">
              <Table.Td>{invoice.number}</Table.Td>
              <Table.Td>{formatInvoiceDate(invoice.date)}</Table.Td>
              <Table.Td ta="right">{formatEuroCents(invoice.totalCents)}</Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconFileTypePdf size={16} />}
                  loading={downloading(invoice)}
                  onClick={() => pdf.mutate(invoice)}
                  aria-label={`PDF of invoice ${invoice.number}`}
                >
                  PDF
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
