import type { ContactForm, ContactMessageList, ContactSent } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

/** POST /api/contact: the form with its solved CAPTCHA. */
export function useSendContactMessage() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ContactForm) => api.post<ContactSent>('/api/contact', form),
    onSuccess: () => client.invalidateQueries({ queryKey: ['contact-messages'] }),
  });
}

/** The newest contact messages (realm ADMIN, /operator). */
export function useContactMessages() {
  const api = useApi();
  return useQuery({
    queryKey: ['contact-messages'],
    queryFn: ({ signal }) => api.get<ContactMessageList>('/api/contact/messages', signal),
  });
}
