import type { AlertInbox, AlertRuleFormInput, AlertRuleList, AlertRuleSaved, WebhookDelivery, WebhookDeliveryList } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRequestError } from '../../app/api/api-error';
import { useApi } from '../../app/api/useApi';
import { usePainted } from '../../app/startup/after-paint';

/** An organization's id, or null for the realm's rules. */
export type AlertScope = string | null;

export const alertKeys = {
  all: ['alerts'] as const,
  rules: (scope: AlertScope) => ['alerts', 'rules', scope ?? 'realm'] as const,
  deliveries: (scope: AlertScope, ruleId: string) => ['alerts', 'rules', scope ?? 'realm', ruleId, 'deliveries'] as const,
  inbox: ['alerts', 'inbox'] as const,
};

/** Where a scope's rules are. */
export const rulesUrl = (scope: AlertScope) => (scope ? `/api/organization/${encodeURIComponent(scope)}/alert-rules` : '/api/alert-rules');

export function useAlertRules(scope: AlertScope) {
  const api = useApi();
  return useQuery({ queryKey: alertKeys.rules(scope), queryFn: ({ signal }) => api.get<AlertRuleList>(rulesUrl(scope), signal) });
}

export function useDeliveries(scope: AlertScope, ruleId: string) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.deliveries(scope, ruleId),
    queryFn: ({ signal }) => api.get<WebhookDeliveryList>(`${rulesUrl(scope)}/${encodeURIComponent(ruleId)}/deliveries`, signal),
    // Retries come due on their own: the log follows them while it is open.
    refetchInterval: 5000,
  });
}

/**
 * Creates (no id) or changes a rule; the answer holds a new webhook secret once. A refusal whose
 * every field the form shows beside its input (`shows`) is the form's to say, not the alert toast's.
 */
export function useSaveAlertRule(scope: AlertScope, shows: (field: string) => boolean) {
  const api = useApi();
  const client = useQueryClient();
  const handled = (e: ApiRequestError) => e.status === 400 && !!e.fields && Object.keys(e.fields).every(shows);
  return useMutation({
    mutationFn: ({ id, form }: { id?: string; form: AlertRuleFormInput }) =>
      api.request<AlertRuleSaved>(id ? `${rulesUrl(scope)}/${encodeURIComponent(id)}` : rulesUrl(scope), { method: id ? 'PUT' : 'POST', body: form, handled }),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.rules(scope) }),
  });
}

export function useDeleteAlertRule(scope: AlertScope) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${rulesUrl(scope)}/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.rules(scope) }),
  });
}

export function useTestAlertRule(scope: AlertScope) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<WebhookDelivery>(`${rulesUrl(scope)}/${encodeURIComponent(id)}/test`),
    onSuccess: (_d, id) => client.invalidateQueries({ queryKey: alertKeys.deliveries(scope, id) }),
  });
}

/** The bell: read again when the live channel says it changed; first once the page has been painted. */
export function useAlertInbox() {
  const api = useApi();
  const painted = usePainted();
  return useQuery({ queryKey: alertKeys.inbox, queryFn: ({ signal }) => api.request<AlertInbox>('/api/alerts', { signal, quiet: true }), enabled: painted });
}

export function useMarkAlertsRead() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => api.post<AlertInbox>('/api/alerts/read', ids ? { ids } : {}),
    onSuccess: (inbox) => client.setQueryData(alertKeys.inbox, inbox),
  });
}
