import { auditPageSchema, type AuditFilter } from '@fleetlink/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';
import { filterToParams } from './audit-filter-params';

/** Which trail a page reads: all of it (operator) or one organization's. */
export interface AuditSource {
  /** `/api/audit` or `/api/organization/{id}/audit`; the export is the same path plus `/export`. */
  path: string;
  /** Start of the CSV file's name. */
  fileName: string;
}

export const operatorAudit: AuditSource = { path: '/api/audit', fileName: 'fleetlink-audit' };
export const organizationAudit = (id: string): AuditSource => ({
  path: `/api/organization/${encodeURIComponent(id)}/audit`,
  fileName: 'fleetlink-activity',
});

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
      api.get(`${source.path}${query(filter, { size: String(AUDIT_PAGE_SIZE), ...(after ? { after } : {}) })}`, auditPageSchema, signal),
    placeholderData: keepPreviousData,
  });
}

/** Fetches the filtered trail as CSV (the API needs the bearer token, so no plain link) and saves it. */
export function useAuditExport(source: AuditSource) {
  const api = useApi();
  return useMutation({
    mutationFn: async (filter: AuditFilter) => {
      const csv = await api.get<string>(`${source.path}/export${query(filter)}`);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${source.fileName}-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}
