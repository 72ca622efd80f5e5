import type { ContactMessage } from '@fleetlink/contract';
import { Badge, Card, Divider, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { Fragment } from 'react';
import { formatDateTime } from '../../app/format/date-format';
import { useContactMessages } from './contact-api';

const mailBadge: Record<ContactMessage['mailStatus'], { label: string; color: string; tip: string }> = {
  NOT_CONFIGURED: { label: 'Not mailed', color: 'gray', tip: 'No mail server is configured (SMTP_URL): messages are only listed here.' },
  SENDING: { label: 'Mailing', color: 'blue', tip: 'Being mailed to CONTACT_TO.' },
  SENT: { label: 'Mailed', color: 'green', tip: 'Mailed to CONTACT_TO.' },
  FAILED: { label: 'Mail failed', color: 'red', tip: 'The mail server did not take it.' },
};

function MessageEntry({ m }: { m: ContactMessage }) {
  const badge = mailBadge[m.mailStatus];
  return (
    <Stack gap={4} data-testid="contact-message">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text fw={600} size="sm">
          {m.name} &lt;{m.email}&gt;
        </Text>
        <Tooltip label={m.mailError ? `${badge.tip} ${m.mailError}` : badge.tip} multiline maw={360}>
          <Badge color={badge.color} variant="light" size="sm">
            {badge.label}
          </Badge>
        </Tooltip>
      </Group>
      <Text size="xs" c="dimmed">
        {formatDateTime(new Date(m.createdAt))} · signed in as {m.sentBy}
        {m.clientAddress ? ` · from ${m.clientAddress}` : ''}
      </Text>
      {/* What a user wrote is text: shown as typed, line breaks kept, never as markup. */}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {m.message}
      </Text>
    </Stack>
  );
}

/** /operator: what users wrote through /contact, newest first, with who sent it and when. */
export function ContactMessagesCard() {
  const messages = useContactMessages();
  const list = messages.data;
  return (
    <Card withBorder radius="md">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">Contact messages</Title>
          {list && list.total > list.items.length ? (
            <Text size="sm" c="dimmed">
              The newest {list.items.length} of {list.total}
            </Text>
          ) : null}
        </Group>
        {messages.isPending ? <Loader size="sm" /> : null}
        {list && list.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No messages yet.
          </Text>
        ) : null}
        {list?.items.map((m, i) => (
          <Fragment key={m.id}>
            {i > 0 ? <Divider /> : null}
            <MessageEntry m={m} />
          </Fragment>
        ))}
      </Stack>
    </Card>
  );
}
