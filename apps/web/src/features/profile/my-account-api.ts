import type { MyAccount, MyAccountUpdate, RecoveryCodes, TwoFactorCode, TwoFactorSetup } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

const myAccountKey = ['my-account'] as const;

/** The signed-in person's own account at the built-in sign-in (issue 72). */
export function useMyAccount() {
  const api = useApi();
  return useQuery({ queryKey: myAccountKey, queryFn: ({ signal }) => api.get<MyAccount>('/api/account', signal) });
}

export function useChangeMyAccount() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: MyAccountUpdate) => api.put<MyAccount>('/api/account', change),
    onSuccess: (account) => client.setQueryData(myAccountKey, account),
  });
}

/** Two-factor authentication's changes (issue 72); each answer's codes are shown once, and the account read again. */
function useTwoFactorChange<R>(path: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body?: TwoFactorCode) => api.post<R>(`/api/account/two-factor${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: myAccountKey }),
  });
}

export const useTwoFactorSetup = () => useTwoFactorChange<TwoFactorSetup>('/setup');
export const useTwoFactorEnable = () => useTwoFactorChange<RecoveryCodes>('');
export const useNewRecoveryCodes = () => useTwoFactorChange<RecoveryCodes>('/recovery-codes');
export const useTwoFactorDisable = () => useTwoFactorChange<void>('/disable');
