import type { ApiTokenCreated, ApiTokenFormInput, ApiTokenList } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

export const apiTokenKeys = {
  mine: ['api-tokens'] as const,
  all: ['all-api-tokens'] as const,
};

export function useMyApiTokens() {
  const api = useApi();
  return useQuery({ queryKey: apiTokenKeys.mine, queryFn: ({ signal }) => api.get<ApiTokenList>('/api/api-tokens', signal) });
}

/** Every user's tokens: only asked for when the person is a realm ADMIN. */
export function useAllApiTokens(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: apiTokenKeys.all,
    queryFn: ({ signal }) => api.get<ApiTokenList>('/api/all-api-tokens', signal),
    enabled,
    retry: false,
  });
}

function useInvalidateTokens() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: apiTokenKeys.mine }), client.invalidateQueries({ queryKey: apiTokenKeys.all })]);
}

export function useCreateApiToken() {
  const api = useApi();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (form: ApiTokenFormInput) => api.post<ApiTokenCreated>('/api/api-tokens', form),
    onSuccess: () => invalidate(),
  });
}

export function useRevokeApiToken() {
  const api = useApi();
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/api-tokens/${encodeURIComponent(id)}`),
    onSuccess: () => invalidate(),
  });
}
