import { AUDIT_EXPORT_URL_PREFIX, type AuditFilter, type AuditPage } from '@fleetlink/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { openConsoleLink } from '../../app/api/open-link';
import { useApi } from '../../app/api/useApi';
import { filterToParams } from './audit-filter-params';

/** Which trail a page reads: all of it (operator) or one organization's. */
export interface AuditSource {
  /** `/api/audit` or `/api/organization/{id}/audit`; the export link is the same path plus `/export-link`. */
  path: string;
}

export const operatorAudit: AuditSource = { path: '/api/audit' };
export const organizationAudit = (id: string): AuditSource => ({ path: `/api/organization/${encodeURIComponent(id)}/audit` });

export const AUDIT_PAGE_SIZE = 50;

/** The filter as the API's query string (the same parameters as the page's address), plus paging. */
function query(filter: AuditFilter, paging: Record<string, string> = {}): string {
  const params = filterToParams(filter);
  for (const [key, value] of Object.entries(paging)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function useAuditPage(source: AuditSource, filter: AuditFilter, after: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['audit', source.path, filter, after ?? null],
    queryFn: ({ signal }) =>
      api.get<AuditPage>(`${source.path}${query(filter, { size: String(AUDIT_PAGE_SIZE), ...(after ? { after } : {}) })}`, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * Exports the filtered trail as CSV: the console answers a one-time link (the API needs the bearer
 * token, a navigation carries none), and the browser saves the file as it streams, however long the
 * trail. A failure is the alert toast.
 */
export function useAuditExport(source: AuditSource) {
  const api = useApi();
  return useMutation({
    mutationFn: async (filter: AuditFilter) => {
      openConsoleLink(await api.post<unknown>(`${source.path}/export-link${query(filter)}`), AUDIT_EXPORT_URL_PREFIX);
    },
  });
}
