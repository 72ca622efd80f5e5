import type { AlertRule, AlertRuleSaved } from '@fleetlink/contract';
import { Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { IconBellPlus, IconEdit, IconSend, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from '../../router/router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { SecretOnce } from '../../app/forms/SecretOnce';
import { channelsText, conditionText, devicesText } from './alert-text';
import { AlertRuleModal } from './AlertRuleModal';
import { useAlertRules, useDeleteAlertRule, useTestAlertRule, type AlertScope } from './alerts-api';
import { DeliveriesModal } from './DeliveriesModal';
import { PageTitle } from '../../app/a11y/PageTitle';
import { TableScroller } from '../../app/tables/TableScroller';
import { ActionsHeader } from '../../app/tables/ActionsHeader';

/** A new webhook's signing secret, this once: receivers check `Fleetlink-Signature` with it. */
function NewSecret({ saved, onDone }: { saved: AlertRuleSaved; onDone: () => void }) {
  return (
    <SecretOnce title={`The webhook of ${saved.name} signs with this secret`} secret={saved.webhookSecret!} label="secret" testId="new-webhook-secret" onDone={onDone}>
      <Text size="sm">
        Copy it now: it is not shown again. Each POST carries <Code>Fleetlink-Signature: t=…,v1=…</Code>, the HMAC-SHA256 of <Code>t.body</Code> under this
        secret; refuse a signature that does not match, or whose time is more than a few minutes old.
      </Text>
    </SecretOnce>
  );
}

function RuleRow({ scope, rule, onEdit, onLog }: { scope: AlertScope; rule: AlertRule; onEdit: () => void; onLog: () => void }) {
  const remove = useDeleteAlertRule(scope);
  const test = useTestAlertRule(scope);
  return (
    <Table.Tr data-testid="alert-rule">
      <Table.Td>
        <Text size="sm" fw={500}>
          {rule.name}
        </Text>
        {rule.enabled ? null : (
          <Badge size="sm" color="gray" variant="light">
            Off
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{conditionText(rule.condition)}</Text>
        {scope ? (
          <Text size="xs" c="dimmed">
            {devicesText(rule)}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Text size="sm">{channelsText(rule)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {rule.webhook ? (
            <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} loading={test.isPending} onClick={() => test.mutate(rule.id, { onSuccess: onLog })} aria-label={`Test the webhook of ${rule.name}`}>
              Test
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" onClick={onLog} aria-label={`Deliveries of ${rule.name}`}>
            Deliveries
          </Button>
          <Button size="xs" variant="subtle" leftSection={<IconEdit size={14} />} onClick={onEdit} aria-label={`Edit ${rule.name}`}>
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            question={`Delete the alert rule ${rule.name}?`}
            onConfirm={() => remove.mutateAsync(rule.id)}
            aria-label={`Delete ${rule.name}`}
          >
            Delete
          </ConfirmButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The alert rules of an organization (its Alerts tab) or of the realm (/operator/alerts, realm ADMIN). */
export function AlertRulesView({ scope }: { scope: AlertScope }) {
  const rules = useAlertRules(scope);
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [log, setLog] = useState<AlertRule | null>(null);
  const [saved, setSaved] = useState<AlertRuleSaved | null>(null);
  const items = rules.data?.items ?? [];
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Text c="dimmed" maw={800}>
          {scope
            ? 'Be told when something goes wrong with this organization’s devices: in the console’s bell, by mail, or by a webhook to your chat or incident tool.'
            : 'Be told when something goes wrong across the fleet: a staged rollout that halted by itself.'}
        </Text>
        <Button leftSection={<IconBellPlus size={16} />} onClick={() => setEditing('new')}>
          New rule
        </Button>
      </Group>
      {saved?.webhookSecret ? <NewSecret saved={saved} onDone={() => setSaved(null)} /> : null}
      {rules.data && !items.length ? <Text c="dimmed">No alert rules yet.</Text> : null}
      {items.length ? (
        <TableScroller label="Alert rules" minWidth={800}>
          <Table verticalSpacing="sm" aria-label="Alert rules">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Tell</Table.Th>
                <ActionsHeader />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((rule) => (
                <RuleRow key={rule.id} scope={scope} rule={rule} onEdit={() => setEditing(rule)} onLog={() => setLog(rule)} />
              ))}
            </Table.Tbody>
          </Table>
        </TableScroller>
      ) : null}
      {editing ? (
        <AlertRuleModal
          key={editing === 'new' ? 'new' : editing.id}
          scope={scope}
          rule={editing === 'new' ? undefined : editing}
          opened
          onClose={() => setEditing(null)}
          onSaved={setSaved}
        />
      ) : null}
      {log ? <DeliveriesModal scope={scope} rule={log} onClose={() => setLog(null)} /> : null}
    </Stack>
  );
}

/** /organizations/{id}/alerts. */
export function OrganizationAlertsPage() {
  const { id = '' } = useParams();
  return <AlertRulesView scope={id} />;
}

/** /operator/alerts (realm ADMIN). */
export function RealmAlertsPage() {
  return (
    <Stack>
      <PageTitle title="Alerts" size="h2" />
      <AlertRulesView scope={null} />
    </Stack>
  );
}
