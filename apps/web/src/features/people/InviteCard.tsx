import { accountCreateSchema, accountLimits, accountRoleChoices, accountRoleLabels, type AccountInvitation, type AccountRoleChoice } from '@fleetlink/contract';
import { Button, Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward } from '@tabler/icons-react';
import { ApiRequestError } from '../../app/api/api-error';
import { fieldRule } from '../../app/forms/zod-validate';
import { useInviteAccount } from './people-api';

interface InviteValues {
  email: string;
  name: string;
  role: AccountRoleChoice;
}

export const roleOptions = accountRoleChoices.map((r) => ({ value: r, label: accountRoleLabels[r] }));

/** Invites a person: an account, and a one-time link mailed to them (or shown here, to hand over, without mail). */
export function InviteCard({ onInvited }: { onInvited: (invitation: AccountInvitation) => void }) {
  const invite = useInviteAccount();
  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: { email: '', name: '', role: 'USER' },
    // Each field's rule as the API checks it.
    validate: { email: fieldRule<string>(accountCreateSchema.shape.email), name: fieldRule<string>(accountCreateSchema.shape.name) },
    validateInputOnChange: true,
  });
  const submit = (values: InviteValues) =>
    invite.mutate(values, {
      onSuccess: (invitation) => {
        form.reset();
        onInvited(invitation);
      },
      onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields),
    });
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label="Invite a person">
        <Stack gap="sm">
          <Title order={2} size="h5">
            Invite a person
          </Title>
          <Group align="flex-start" grow>
            <TextInput label="Email" type="email" required maxLength={accountLimits.email} {...form.getInputProps('email')} />
            <TextInput label="Name" required maxLength={accountLimits.name} {...form.getInputProps('name')} />
            <Select label="Role" allowDeselect={false} data={roleOptions} {...form.getInputProps('role')} />
          </Group>
          <Group>
            <Button type="submit" loading={invite.isPending} leftSection={<IconMailForward size={16} />}>
              Invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
