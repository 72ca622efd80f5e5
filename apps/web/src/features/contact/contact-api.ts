import { contactMessageListSchema, contactSentSchema, type ContactForm } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';

/** POST /api/contact: the form with its solved CAPTCHA. */
export function useSendContactMessage() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ContactForm) => api.post('/api/contact', form, contactSentSchema),
    onSuccess: () => client.invalidateQueries({ queryKey: ['contact-messages'] }),
  });
}

/** The newest contact messages (realm ADMIN, /operator). */
export function useContactMessages() {
  const api = useApi();
  return useQuery({
    queryKey: ['contact-messages'],
    queryFn: ({ signal }) => api.get('/api/contact/messages', contactMessageListSchema, signal),
  });
}
