import type { Account, AccountCreateInput, AccountInvitation, AccountList, AccountSettings, AccountUpdate } from '@fleetlink/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

export const PEOPLE_PAGE_SIZE = 25;
const peopleKey = ['accounts'] as const;

/** A page of the built-in sign-in's accounts, as the search finds them (issue 72). */
export function useAccounts(search: string, page: number) {
  const api = useApi();
  const query = new URLSearchParams({ page: String(page), size: String(PEOPLE_PAGE_SIZE), ...(search ? { search } : {}) });
  return useQuery({
    queryKey: [...peopleKey, search, page],
    queryFn: ({ signal }) => api.get<AccountList>(`/api/accounts?${query}`, signal),
    placeholderData: keepPreviousData,
  });
}

function useChange<T, R>(call: (api: ReturnType<typeof useApi>, arg: T) => Promise<R>) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({ mutationFn: (arg: T) => call(api, arg), onSuccess: () => client.invalidateQueries({ queryKey: peopleKey }) });
}

export const useInviteAccount = () => useChange((api, form: AccountCreateInput) => api.post<AccountInvitation>('/api/accounts', form));
export const useInviteAgain = () => useChange((api, id: string) => api.post<AccountInvitation>(`/api/accounts/${encodeURIComponent(id)}/invitation`));
export const useUpdateAccount = () => useChange((api, { id, change }: { id: string; change: AccountUpdate }) => api.put<Account>(`/api/accounts/${encodeURIComponent(id)}`, change));
export const useDeleteAccount = () => useChange((api, id: string) => api.delete(`/api/accounts/${encodeURIComponent(id)}`));
export const useResetTwoFactor = () => useChange((api, id: string) => api.delete(`/api/accounts/${encodeURIComponent(id)}/two-factor`));

const settingsKey = ['account-settings'] as const;

/** The realm's sign-in rules (an ADMIN's second factor required or not). */
export function useAccountSettings() {
  const api = useApi();
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => api.get<AccountSettings>('/api/account-settings', signal) });
}

export function useChangeAccountSettings() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: AccountSettings) => api.put<AccountSettings>('/api/account-settings', settings),
    onSuccess: (settings) => client.setQueryData(settingsKey, settings),
  });
}
