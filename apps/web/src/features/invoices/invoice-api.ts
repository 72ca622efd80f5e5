import { type Invoice, INVOICE_PDF_URL_PREFIX, type InvoiceRun } from '@fleetlink/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { openConsoleLink } from '../../app/api/open-link';
import { useApi } from '../../app/api/useApi';

/**
 * An invoice's PDF: the console answers a one-time relative link (a navigation carries no bearer
 * token) and the browser saves the attachment. A failure is only logged (SPEC §8).
 */
export function useInvoicePdf(organizationId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (invoice: Invoice) => {
      const url = await api.request<unknown>(
        `/api/request-invoice/${encodeURIComponent(organizationId)}/${encodeURIComponent(invoice.id)}?format=pdf`,
        { quiet: true },
      );
      openConsoleLink(url, INVOICE_PDF_URL_PREFIX);
    },
    onError: (err, invoice) => console.error(`The download of invoice ${invoice.number} failed:`, err),
  });
}

/** /operator 'Create invoices': bills the previous month; organizations' invoice lists are read again after. */
export function useCreateInvoices() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<InvoiceRun>('/api/invoice/create'),
    onSuccess: () => client.invalidateQueries({ queryKey: ['organization'] }),
  });
}
