import type { MyAccount, MyAccountUpdate } from '@fleetlink/contract';
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
