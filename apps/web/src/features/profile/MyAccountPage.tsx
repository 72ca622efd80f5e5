import { accountLimits, myAccountUpdateSchema, newPasswordSchema } from '@fleetlink/contract';
import { Alert, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { PageTitle } from '../../app/a11y/PageTitle';
import { ApiRequestError } from '../../app/api/api-error';
import { fieldRule } from '../../app/forms/zod-validate';
import { usePublicConfig } from '../../app/startup/usePublicConfig';
import { useChangeMyAccount, useMyAccount } from './my-account-api';
import { TwoFactorCard } from './TwoFactorCard';

function NameCard({ name }: { name: string }) {
  const change = useChangeMyAccount();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name },
    validate: { name: fieldRule<string>(myAccountUpdateSchema.shape.name) },
    validateInputOnChange: true,
  });
  return (
    <Card withBorder padding="lg">
      <form noValidate aria-label="Your name" onSubmit={form.onSubmit((v) => change.mutate({ name: v.name }, { onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields) }))}>
        <Stack gap="sm">
          <Title order={2} size="h5">
            Name
          </Title>
          <TextInput label="Name" required maxLength={accountLimits.name} {...form.getInputProps('name')} />
          {change.isSuccess ? <Text size="sm">Saved. Pages show it after your next sign-in.</Text> : null}
          <Group>
            <Button type="submit" loading={change.isPending}>
              Save name
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  repeat: string;
}

function PasswordCard() {
  const change = useChangeMyAccount();
  const [saved, setSaved] = useState(false);
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', repeat: '' },
    validate: {
      currentPassword: (v) => (v ? null : 'Current password is required.'),
      newPassword: fieldRule<string>(newPasswordSchema),
      repeat: (v, values) => (v === values.newPassword ? null : 'The two passwords differ: type the same one twice.'),
    },
    validateInputOnChange: true,
  });
  const submit = ({ currentPassword, newPassword }: PasswordValues) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset();
          setSaved(true);
        },
        onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields),
      },
    );
  return (
    <Card withBorder padding="lg">
      <form noValidate aria-label="Your password" onSubmit={form.onSubmit(submit)}>
        <Stack gap="sm">
          <Title order={2} size="h5">
            Password
          </Title>
          <PasswordInput label="Current password" required autoComplete="current-password" {...form.getInputProps('currentPassword')} />
          <PasswordInput label="New password" description="At least 12 characters, not a common password." required autoComplete="new-password" {...form.getInputProps('newPassword')} />
          <PasswordInput label="Repeat the new password" required autoComplete="new-password" {...form.getInputProps('repeat')} />
          {saved ? (
            <Alert color="teal" title="Password changed" withCloseButton closeButtonLabel="Close" onClose={() => setSaved(false)}>
              Use it at your next sign-in.
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={change.isPending} onClick={() => setSaved(false)}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** /profile/account (issue 72): the signed-in person's name, password and second factor at the built-in sign-in. */
export function MyAccountPage() {
  const { accounts } = usePublicConfig();
  const mine = useMyAccount();
  return (
    <Stack maw={560}>
      <PageTitle title="My account" />
      {!accounts ? (
        <Text>You sign in with your organization's identity provider: change your name and password there.</Text>
      ) : mine.data ? (
        <>
          <Text size="sm" c="dimmed">
            You sign in as {mine.data.email}.
          </Text>
          <NameCard key={mine.data.name} name={mine.data.name} />
          <PasswordCard />
          <TwoFactorCard status={mine.data.twoFactor} />
        </>
      ) : null}
    </Stack>
  );
}
