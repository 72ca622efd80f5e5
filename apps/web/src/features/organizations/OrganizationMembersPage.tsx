import { memberRoles, organizationUserFormSchema, type OrganizationUser } from '@fleetlink/contract';
import { Alert, Badge, Box, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from '../../router/router';
import { useSession } from '../../app/auth/useSession';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { since } from './format';
import { InvitationSent } from '../people/InvitationSent';
import { canManage, useAddMember, useInviteMember, useOrganization, useRevokeMember } from './organization-api';
import { zodValidate } from '../../app/forms/zod-validate';
import { TableScroller } from '../../app/tables/TableScroller';

interface MemberValues {
  email: string;
  role: 'USER' | 'ADMIN';
}

/**
 * After adding someone nobody signs in as yet (the built-in provider only): offers to invite them.
 * Their membership is there already, waiting for their first sign-in.
 */
function InviteWaitingMember({ organizationId, member, onDone }: { organizationId: string; member: OrganizationUser; onDone: () => void }) {
  const invite = useInviteMember(organizationId);
  if (invite.data) return <InvitationSent invitation={invite.data} onDone={onDone} />;
  return (
    <Alert color="blue" title={`Nobody signs in as ${member.email} yet`} withCloseButton closeButtonLabel="Close" onClose={onDone} data-testid="member-invitation">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Invite them: they get a mail with a link to choose a password, and see this organization once they sign in.</Text>
        <Button size="xs" leftSection={<IconMailForward size={14} />} loading={invite.isPending} onClick={() => invite.mutate(member.id)}>
          Invite them
        </Button>
      </Stack>
    </Alert>
  );
}

function AddMemberForm({ organizationId }: { organizationId: string }) {
  const add = useAddMember(organizationId);
  const [waiting, setWaiting] = useState<OrganizationUser | null>(null);
  const form = useForm<MemberValues>({
    mode: 'controlled',
    initialValues: { email: '', role: 'USER' },
    validate: zodValidate<MemberValues>(organizationUserFormSchema),
    validateInputOnChange: true,
  });
  return (
    <Card withBorder padding="lg">
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          add.mutate(values, {
            onSuccess: (added) => {
              form.reset();
              setWaiting(added.invitable ? added : null);
            },
          }),
        )}
      >
        <Title order={2} size="h5" mb="xs">
          Add user
        </Title>
        <Group align="flex-start">
          <TextInput label="Email" required type="email" style={{ flex: 1, minWidth: 220 }} {...form.getInputProps('email')} />
          <Select
            label="Role"
            required
            allowDeselect={false}
            data={memberRoles.map((r) => ({ value: r, label: r }))}
            w={140}
            {...form.getInputProps('role')}
          />
          <Button type="submit" mt={25} loading={add.isPending} leftSection={<IconUserPlus size={16} />}>
            Add user
          </Button>
        </Group>
        <Text size="sm" c="dimmed" mt="xs">
          No notification is sent to new members: let them know they can now sign in and see this organization.
        </Text>
      </form>
      {waiting ? (
        <Box mt="sm">
          <InviteWaitingMember key={waiting.id} organizationId={organizationId} member={waiting} onDone={() => setWaiting(null)} />
        </Box>
      ) : null}
    </Card>
  );
}

/** Members tab: who has access, with which role; managers add members and revoke all but the CREATOR. */
export function OrganizationMembersPage() {
  const { id = '' } = useParams();
  const { data } = useOrganization(id);
  const revoke = useRevokeMember(id);
  const { username } = useSession();
  if (!data) return null;
  const manage = canManage(data.role);

  return (
    <Stack>
      <TableScroller label="Members" minWidth={520}>
        <Table verticalSpacing="sm" aria-label="Members">
          <Table.Tbody>
            {data.users.map((u) => (
              <Table.Tr key={u.id} data-testid="member-row">
                <Table.Td>
                  <Group gap="xs">
                    <Text>{u.email}</Text>
                    {u.email === username?.toLowerCase() ? (
                      <Badge size="sm" color="teal">
                        ME
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {since(u.requestDate)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{u.role}</Badge>
                </Table.Td>
                <Table.Td ta="right">
                  {manage && u.role !== 'CREATOR' ? (
                    <ConfirmButton
                      size="xs"
                      color="red"
                      variant="subtle"
                      leftSection={<IconUserMinus size={14} />}
                      question={`Revoke access to ${u.email}?`}
                      onConfirm={() => revoke.mutateAsync(u.id)}
                    >
                      Revoke access
                    </ConfirmButton>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroller>
      {manage ? <AddMemberForm organizationId={id} /> : null}
    </Stack>
  );
}
