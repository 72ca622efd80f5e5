import { formatInvoiceNumbers, formatInvoicePeriod, type InvoiceRun } from '@fleetlink/contract';
import { Button, Card, Stack, Text } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { useCreateInvoices } from './invoice-api';

/** What a run did, in a sentence: how many invoices, for which month, or why none. */
export function describeRun(run: InvoiceRun): string {
  const month = formatInvoicePeriod(run.period);
  if (run.created.length) {
    const made = run.created.length === 1 ? `1 invoice created for ${month}` : `${run.created.length} invoices created for ${month}`;
    return `${made} (${formatInvoiceNumbers(run.created)}).`;
  }
  if (run.alreadyInvoiced) return `No new invoices: ${month} was invoiced already.`;
  return `No invoices: no organization had devices in ${month}.`;
}

/** /operator 'Create invoices' (SPEC §2): bills the previous calendar month, with a spinner while it runs. */
export function CreateInvoicesCard() {
  const create = useCreateInvoices();
  return (
    <Card withBorder radius="md">
      <Stack align="flex-start">
        <Text size="sm" c="dimmed">
          Invoices the previous calendar month: one invoice per organization that had devices, priced per device-month and prorated by
          the days each device existed. Running it again for the same month creates nothing new.
        </Text>
        <Button leftSection={<IconFileInvoice size={16} />} loading={create.isPending} onClick={() => create.mutate()}>
          Create invoices
        </Button>
        {create.data ? (
          <Text size="sm" role="status" data-testid="invoice-run">
            {describeRun(create.data)}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
