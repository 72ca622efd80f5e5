import type { Account, AccountInvitation } from '@fleetlink/contract';
import { Button, Group } from '@mantine/core';
import { IconMailForward, IconShieldOff, IconTrash, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { useDeleteAccount, useInviteAgain, useResetTwoFactor, useUpdateAccount } from './people-api';

/** What an ADMIN does to one account: invite again (no password yet), reset its second factor (a lost phone), disable or enable, delete. */
export function AccountActions({ account, self, onInvited }: { account: Account; self: boolean; onInvited: (invitation: AccountInvitation) => void }) {
  const update = useUpdateAccount();
  const remove = useDeleteAccount();
  const again = useInviteAgain();
  const resetTwoFactor = useResetTwoFactor();
  const who = account.email;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {account.invited ? (
        <Button size="xs" variant="subtle" leftSection={<IconMailForward size={14} />} loading={again.isPending} onClick={() => again.mutate(account.id, { onSuccess: onInvited })} aria-label={`Invite again: ${who}`}>
          Invite again
        </Button>
      ) : null}
      {account.twoFactor && !self ? (
        <ConfirmButton
          size="xs"
          variant="subtle"
          leftSection={<IconShieldOff size={14} />}
          question={`Reset the two-factor authentication of ${who}? They sign in with their password alone until they set it up again (at once where administrators must use it).`}
          confirmLabel="Reset"
          onConfirm={() => resetTwoFactor.mutateAsync(account.id)}
          aria-label={`Reset two-factor of ${who}`}
        >
          Reset two-factor
        </ConfirmButton>
      ) : null}
      {self ? null : account.disabled ? (
        <Button size="xs" variant="subtle" leftSection={<IconUserCheck size={14} />} loading={update.isPending} onClick={() => update.mutate({ id: account.id, change: { disabled: false } })} aria-label={`Enable ${who}`}>
          Enable
        </Button>
      ) : (
        <ConfirmButton
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconUserOff size={14} />}
          question={`Disable ${who}? They are signed out everywhere at once, and their API tokens stop.`}
          confirmLabel="Disable"
          onConfirm={() => update.mutateAsync({ id: account.id, change: { disabled: true } })}
          aria-label={`Disable ${who}`}
        >
          Disable
        </ConfirmButton>
      )}
      {self ? null : (
        <ConfirmButton
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          question={`Delete the account of ${who}? The audit trail keeps their email.`}
          confirmLabel="Delete"
          onConfirm={() => remove.mutateAsync(account.id)}
          aria-label={`Delete ${who}`}
        >
          Delete
        </ConfirmButton>
      )}
    </Group>
  );
}
