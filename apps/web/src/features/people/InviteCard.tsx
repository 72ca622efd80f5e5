import { accountCreateSchema, accountLimits, accountRoleChoices, accountRoleLabels, type AccountInvitation, type AccountRoleChoice } from '@fleetlink/contract';
import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward } from '@tabler/icons-react';
import { ApiRequestError } from '../../app/api/api-error';
import { SecretOnce } from '../../app/forms/SecretOnce';
import { formatDayMonthTime } from '../../app/format/date-format';
import { useInviteAccount } from './people-api';

interface InviteValues {
  email: string;
  name: string;
  role: AccountRoleChoice;
}

/** A field's rule, as the API checks it. */
const ruleOf = (field: 'email' | 'name') => (value: string) => accountCreateSchema.shape[field].safeParse(value).error?.issues[0]?.message ?? null;

export const roleOptions = accountRoleChoices.map((r) => ({ value: r, label: accountRoleLabels[r] }));

/** Invites a person: an account, and a one-time link mailed to them (or shown here, to hand over, without mail). */
export function InviteCard({ onInvited }: { onInvited: (invitation: AccountInvitation) => void }) {
  const invite = useInviteAccount();
  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: { email: '', name: '', role: 'USER' },
    validate: { email: ruleOf('email'), name: ruleOf('name') },
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

/** What became of an invitation: mailed, or its link to hand over (shown this once). */
export function InvitationSent({ invitation, onDone }: { invitation: AccountInvitation; onDone: () => void }) {
  const until = formatDayMonthTime(new Date(invitation.expiresAt));
  if (invitation.mailed) {
    return (
      <Alert color="teal" title={`Invitation mailed to ${invitation.account.email}`} withCloseButton closeButtonLabel="Close" onClose={onDone} data-testid="invitation-sent">
        The link in it opens once, until {until}.
      </Alert>
    );
  }
  return (
    <SecretOnce title={`Invitation for ${invitation.account.email}`} secret={invitation.link ?? ''} label="link" testId="invitation-sent" secretTestId="invitation-link" onDone={onDone}>
      <Text size="sm">
        {invitation.mailError} Hand this link to them: it opens once, until {until}, and is not shown again.
      </Text>
    </SecretOnce>
  );
}
