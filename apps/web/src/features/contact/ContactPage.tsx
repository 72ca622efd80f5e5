import { contactFormSchema, contactLimits, type ContactFormInput } from '@fleetlink/contract';
import { fitName } from './fit-name';
import { Anchor, Button, Group, Paper, Stack, Text, Textarea, TextInput, ThemeIcon, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiRequestError } from '../../app/api/api-error';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { useSession } from '../../app/auth/useSession';
import { CaptchaField } from './CaptchaField';
import { useSendContactMessage } from './contact-api';
import { PageTitle } from '../../app/a11y/PageTitle';

/**
 * /contact (SPEC §2; a sign-in is all it needs): Name, Email (the user's own, prefilled), Message and
 * the CAPTCHA, checked by the contract's schema like the API. Once sent: 'Message sent', with a way
 * to write another.
 */
export function ContactPage() {
  const session = useSession();
  const send = useSendContactMessage();
  const [sent, setSent] = useState(false);
  // Each round is a new challenge: after a send, and after the server refused an answer.
  const [round, setRound] = useState(0);
  const blank: ContactFormInput = { name: fitName(session.name ?? ''), email: session.email ?? '', message: '', captcha: '' };
  const form = useForm<ContactFormInput>({
    mode: 'controlled',
    initialValues: blank,
    validate: schemaResolver(contactFormSchema, { sync: true }),
    // A field says what is wrong as soon as it is dirty, as every form does (SPEC §5).
    validateInputOnChange: true,
  });

  const submit = (values: ContactFormInput) =>
    send.mutate(contactFormSchema.parse(values), {
      onSuccess: () => setSent(true),
      onError: (err) => {
        if (!(err instanceof ApiRequestError)) return;
        if (err.fields) form.setErrors(err.fields);
        // A refused or spent answer cannot be tried again: the widget starts over.
        if (err.fields?.captcha) newChallenge();
      },
    });
  const newChallenge = () => {
    form.setFieldValue('captcha', '');
    setRound((r) => r + 1);
  };
  const another = () => {
    form.setValues({ ...blank, name: form.values.name, email: form.values.email });
    newChallenge();
    setSent(false);
  };

  return (
    <Stack maw={640}>
      <AppBreadcrumbs items={[{ label: 'Contact' }]} />
      <PageTitle title="Contact" size="h2" />
      {sent ? (
        <Paper withBorder p="xl" data-testid="message-sent">
          <Stack align="flex-start">
            <Group gap="sm">
              <ThemeIcon color="green" variant="light" radius="xl" size="lg">
                <IconCircleCheck size={22} />
              </ThemeIcon>
              <Title order={2} size="h3">Message sent</Title>
            </Group>
            <Text>Thank you: your message has reached us, and we will answer at {form.values.email}.</Text>
            <Anchor component="button" type="button" onClick={another}>
              Send another message
            </Anchor>
          </Stack>
        </Paper>
      ) : (
        <form noValidate onSubmit={form.onSubmit(submit)}>
          <Stack>
            <Text c="dimmed" size="sm">
              A question, a problem, or access you think you should have: write to the people who run this console.
            </Text>
            <TextInput label="Name" required maxLength={contactLimits.name} autoComplete="name" {...form.getInputProps('name')} />
            <TextInput label="Email" required type="email" maxLength={contactLimits.email} autoComplete="email" {...form.getInputProps('email')} />
            <Textarea label="Message" required autosize minRows={5} maxLength={contactLimits.message} {...form.getInputProps('message')} />
            <CaptchaField round={round} error={form.errors.captcha as string | undefined} onChange={(payload) => form.setFieldValue('captcha', payload)} />
            <Group justify="flex-end">
              <Button type="submit" loading={send.isPending}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
