import type {
  AccountInvitation,
  MyOrganizations,
  OrganizationDetail,
  OrganizationDomain,
  OrganizationDomainFormInput,
  OrganizationFormInput,
  OrganizationRole,
  OrganizationUser,
  OrganizationUserFormInput,
} from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

export const organizationKeys = {
  mine: ['organizations'] as const,
  detail: (id: string) => ['organization', id] as const,
};

/** Managing (edit, delete, members, domains) is for CREATOR and ADMIN members (SPEC §6). */
export const canManage = (role: OrganizationRole | undefined) => role === 'CREATOR' || role === 'ADMIN';

export function useMyOrganizations() {
  const api = useApi();
  return useQuery({
    queryKey: organizationKeys.mine,
    queryFn: ({ signal }) => api.get<MyOrganizations>('/api/organizations', signal),
  });
}

export function useOrganization(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: organizationKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<OrganizationDetail>(`/api/organization/${encodeURIComponent(id!)}`, signal),
    enabled: !!id,
    retry: false,
  });
}

/** Mutations refresh both the list and the organization they touched. */
function useInvalidate() {
  const client = useQueryClient();
  return (id?: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: organizationKeys.mine }),
      id ? client.invalidateQueries({ queryKey: organizationKeys.detail(id) }) : undefined,
      // Devices show their organization; keep them in step.
      client.invalidateQueries({ queryKey: ['devices'] }),
    ]);
}

export function useSaveOrganization(id: string | undefined) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: OrganizationFormInput) =>
      id
        ? api.put<OrganizationDetail>(`/api/organization/${encodeURIComponent(id)}`, form)
        : api.post<OrganizationDetail>('/api/organization', form),
    onSuccess: (saved) => invalidate(saved.id),
  });
}

export function useDeleteOrganization(id: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/api/organization/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      client.removeQueries({ queryKey: organizationKeys.detail(id) });
      await client.invalidateQueries({ queryKey: organizationKeys.mine });
    },
  });
}

export function useAddMember(id: string) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: OrganizationUserFormInput) => api.post<OrganizationUser>(`/api/organization/${encodeURIComponent(id)}/user`, form),
    onSuccess: () => invalidate(id),
  });
}

/** Invites a member who has no account yet (issue 72): mailed to them (or, for a realm ADMIN, a link to hand over). */
export function useInviteMember(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: (userId: string) => api.post<AccountInvitation>(`/api/organization/${encodeURIComponent(id)}/user/${encodeURIComponent(userId)}/invitation`),
  });
}

export function useRevokeMember(id: string) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (userId: string) => api.delete(`/api/organization/${encodeURIComponent(id)}/user/${encodeURIComponent(userId)}`),
    onSuccess: () => invalidate(id),
  });
}

export function useAddDomain(id: string) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: OrganizationDomainFormInput) =>
      api.post<OrganizationDomain>(`/api/organization/${encodeURIComponent(id)}/domain`, form),
    onSuccess: () => invalidate(id),
  });
}

export function useRevokeDomain(id: string) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (domainId: string) => api.delete(`/api/organization/${encodeURIComponent(id)}/domain/${encodeURIComponent(domainId)}`),
    onSuccess: () => invalidate(id),
  });
}
