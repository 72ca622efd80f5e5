import type { AccountInvitation } from '@fleetlink/contract';
import { Alert, Text } from '@mantine/core';
import { SecretOnce } from '../../app/forms/SecretOnce';
import { formatDayMonthTime } from '../../app/format/date-format';

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
  if (!invitation.link) {
    // Not mailed, and the link is not for this person to hand over (an organization's manager).
    return (
      <Alert color="red" title={`The invitation to ${invitation.account.email} was not sent`} withCloseButton closeButtonLabel="Close" onClose={onDone} data-testid="invitation-sent">
        {invitation.mailError} Ask a Fleetlink administrator to invite them on Manage → People.
      </Alert>
    );
  }
  return (
    <SecretOnce title={`Invitation for ${invitation.account.email}`} secret={invitation.link} label="link" testId="invitation-sent" secretTestId="invitation-link" onDone={onDone}>
      <Text size="sm">
        {invitation.mailError} Hand this link to them: it opens once, until {until}, and is not shown again.
      </Text>
    </SecretOnce>
  );
}
