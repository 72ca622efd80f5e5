import { type Account, type AccountInvitation, type AccountRoleChoice } from '@fleetlink/contract';
import { Badge, Button, Center, Group, Loader, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { PageTitle } from '../../app/a11y/PageTitle';
import { useSession } from '../../app/auth/useSession';
import { usePublicConfig } from '../../app/startup/usePublicConfig';
import { formatDayMonthTime } from '../../app/format/date-format';
import { TableScroller } from '../../app/tables/TableScroller';
import { AccountActions } from './AccountActions';
import { InvitationSent } from './InvitationSent';
import { InviteCard, roleOptions } from './InviteCard';
import { PEOPLE_PAGE_SIZE, useAccounts, useUpdateAccount } from './people-api';
import { SignInRulesCard } from './SignInRulesCard';
import { ActionsHeader } from '../../app/tables/ActionsHeader';

function Standing({ account }: { account: Account }) {
  if (account.disabled) return <Badge color="red" variant="light">Disabled</Badge>;
  if (account.invited) return <Badge color="yellow" variant="light">Invited</Badge>;
  return <Badge color="teal" variant="light">Active</Badge>;
}

function RoleSelect({ account, self }: { account: Account; self: boolean }) {
  const update = useUpdateAccount();
  return (
    <Select
      size="xs"
      w={170}
      allowDeselect={false}
      data={roleOptions}
      value={account.role}
      // Nobody demotes themselves: another ADMIN does.
      disabled={self || update.isPending}
      aria-label={`Role of ${account.email}`}
      onChange={(role) => role && update.mutate({ id: account.id, change: { role: role as AccountRoleChoice } })}
    />
  );
}

/** /operator/people (realm ADMIN, issue 72): the people who sign in with the built-in provider. */
export function PeoplePage() {
  const { accounts: managedHere } = usePublicConfig();
  if (!managedHere) {
    return (
      <Stack>
        <PageTitle title="People" />
        <Text>People sign in with your organization's identity provider: their accounts are managed there.</Text>
      </Stack>
    );
  }
  return <People />;
}

function People() {
  const session = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const accounts = useAccounts(debounced, page - 1);
  const [invitation, setInvitation] = useState<AccountInvitation | null>(null);
  const pages = Math.max(1, Math.ceil((accounts.data?.total ?? 0) / PEOPLE_PAGE_SIZE));
  return (
    <Stack>
      <PageTitle title="People" />
      <Text size="sm" c="dimmed">
        The accounts of the console's built-in sign-in. A person you invite gets a link to choose their password; a disabled person is signed out everywhere at once.
      </Text>
      <InviteCard onInvited={setInvitation} />
      {invitation ? <InvitationSent invitation={invitation} onDone={() => setInvitation(null)} /> : null}
      <SignInRulesCard />
      <TextInput
        label="Search people"
        leftSection={<IconSearch size={16} />}
        placeholder="Email or name"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      {accounts.isPending ? (
        <Center>
          <Loader />
        </Center>
      ) : !accounts.data?.items.length ? (
        <Text c="dimmed">{debounced ? `Nobody matches '${debounced}'.` : 'No accounts yet.'}</Text>
      ) : (
        <TableScroller label="People" minWidth={1000}>
          <Table verticalSpacing="sm" aria-label="People" data-testid="people-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Two-factor</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <ActionsHeader />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.data.items.map((a) => {
                // The built-in provider's email is the person's login: their own row is theirs.
                const self = a.email === session.email;
                return (
                  <Table.Tr key={a.id} data-testid="person-row">
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{a.email}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{a.name}</Table.Td>
                    <Table.Td>
                      <RoleSelect account={a} self={self} />
                    </Table.Td>
                    <Table.Td>
                      <Standing account={a} />
                    </Table.Td>
                    <Table.Td>{a.twoFactor ? 'On' : 'Off'}</Table.Td>
                    <Table.Td>{a.lastSignInAt ? formatDayMonthTime(new Date(a.lastSignInAt)) : 'Never'}</Table.Td>
                    <Table.Td>
                      <AccountActions account={a} self={self} onInvited={setInvitation} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScroller>
      )}
      {pages > 1 ? (
        // Buttons, not Mantine's Pagination: that one is the device list's, in the first load (its own chunk if shared here).
        <Group justify="center" aria-label="Pages">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button variant="default" size="xs" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
