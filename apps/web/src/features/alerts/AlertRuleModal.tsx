import {
  alertConditionKinds,
  alertConditionLabels,
  alertLimits,
  alertRuleFormSchema,
  REALM_CONDITIONS,
  type AlertConditionKind,
  type AlertRule,
  type AlertRuleFormInput,
  type AlertRuleSaved,
} from '@fleetlink/contract';
import { Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiRequestError } from '../../app/api/api-error';
import { useSaveAlertRule, type AlertScope } from './alerts-api';

interface RuleValues {
  name: string;
  enabled: boolean;
  kind: AlertConditionKind;
  minutes: number | string;
  percent: number | string;
  monitor: string;
  search: string;
  tag: string;
  console: boolean;
  emails: string[];
  webhookUrl: string;
}

const valuesOf = (rule: AlertRule | undefined, realm: boolean): RuleValues => {
  const c = rule?.condition;
  return {
    name: rule?.name ?? '',
    enabled: rule?.enabled ?? true,
    kind: c?.kind ?? (realm ? 'ROLLOUT_HALTED' : 'DEVICE_OFFLINE'),
    minutes: c?.kind === 'DEVICE_OFFLINE' ? c.minutes : alertLimits.offlineMinutesDefault,
    percent: c?.kind === 'DRIVE_FULL' ? c.percent : 90,
    monitor: c?.kind === 'MONITOR_CHANGED' ? (c.monitor ?? '') : '',
    search: rule?.devices.search ?? '',
    tag: rule?.devices.tag ?? '',
    console: rule?.notify.console ?? true,
    emails: rule?.notify.emails ?? [],
    webhookUrl: rule?.webhook?.url ?? '',
  };
};

/** The form as the API takes it. */
function toForm(v: RuleValues): AlertRuleFormInput {
  const condition = (): AlertRuleFormInput['condition'] => {
    switch (v.kind) {
      case 'DEVICE_OFFLINE':
        return { kind: v.kind, minutes: Number(v.minutes) };
      case 'DRIVE_FULL':
        return { kind: v.kind, percent: Number(v.percent) };
      case 'MONITOR_CHANGED':
        return { kind: v.kind, monitor: v.monitor.trim() || null };
      default:
        return { kind: v.kind };
    }
  };
  return {
    name: v.name,
    enabled: v.enabled,
    condition: condition(),
    devices: { ...(v.search.trim() ? { search: v.search.trim() } : {}), ...(v.tag.trim() ? { tag: v.tag.trim() } : {}) },
    notify: { console: v.console, emails: v.emails },
    webhookUrl: v.webhookUrl.trim() || null,
  };
}

/** The API's field paths, as this form names its inputs. */
const FIELD_OF: Record<string, keyof RuleValues | undefined> = {
  name: 'name',
  webhookUrl: 'webhookUrl',
  'condition.minutes': 'minutes',
  'condition.percent': 'percent',
  'condition.monitor': 'monitor',
  condition: 'kind',
  'devices.search': 'search',
  'devices.tag': 'tag',
  'notify.emails': 'emails',
};
/** The input that shows an API field's message (each mail address's own message goes beside them all). */
const fieldOf = (key: string) => FIELD_OF[key] ?? (key.startsWith('notify.emails') ? 'emails' : undefined);

/** Adds or edits an alert rule; `onSaved` gets the answer, with a new webhook secret when there is one. */
export function AlertRuleModal({ scope, rule, opened, onClose, onSaved }: { scope: AlertScope; rule?: AlertRule; opened: boolean; onClose: () => void; onSaved: (saved: AlertRuleSaved) => void }) {
  const realm = scope === null;
  const save = useSaveAlertRule(scope, (key) => fieldOf(key) !== undefined);
  const form = useForm<RuleValues>({
    mode: 'controlled',
    initialValues: valuesOf(rule, realm),
    validate: { name: (name) => alertRuleFormSchema.shape.name.safeParse(name).error?.issues[0]?.message ?? null },
    validateInputOnChange: true,
  });
  const kinds = alertConditionKinds.filter((k) => REALM_CONDITIONS.includes(k) === realm);
  const submit = (values: RuleValues) =>
    save.mutate(
      { id: rule?.id, form: toForm(values) },
      {
        onSuccess: (saved) => {
          onSaved(saved);
          onClose();
        },
        onError: (err) => {
          if (!(err instanceof ApiRequestError) || !err.fields) return;
          form.setErrors(Object.fromEntries(Object.entries(err.fields).map(([k, m]) => [fieldOf(k) ?? k, m])));
        },
      },
    );
  const kind = form.values.kind;
  return (
    <Modal opened={opened} onClose={onClose} title={rule ? `Edit alert rule ${rule.name}` : 'New alert rule'} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={rule ? 'Edit alert rule' : 'New alert rule'}>
        <Stack gap="sm">
          <TextInput label="Name" required maxLength={alertLimits.name} data-autofocus {...form.getInputProps('name')} />
          <Select label="When" allowDeselect={false} data={kinds.map((k) => ({ value: k, label: alertConditionLabels[k] }))} {...form.getInputProps('kind')} />
          {kind === 'DEVICE_OFFLINE' ? (
            <NumberInput
              label="Offline for more than (minutes)"
              description="A device that comes back sooner, however often, is not alerted."
              min={alertLimits.offlineMinutesMin}
              max={alertLimits.offlineMinutesMax}
              decimalScale={2}
              clampBehavior="none"
              {...form.getInputProps('minutes')}
            />
          ) : null}
          {kind === 'DRIVE_FULL' ? <NumberInput label="Full at (%)" min={1} max={100} clampBehavior="none" {...form.getInputProps('percent')} /> : null}
          {kind === 'MONITOR_CHANGED' ? <TextInput label="Monitor" description="Its name; leave empty for any monitor." maxLength={alertLimits.name} {...form.getInputProps('monitor')} /> : null}
          {realm ? null : (
            <Group grow align="flex-start">
              <TextInput label="Devices matching" description="As in the device search; empty for all." maxLength={alertLimits.search} {...form.getInputProps('search')} />
              <TextInput label="Devices tagged" maxLength={alertLimits.tag} {...form.getInputProps('tag')} />
            </Group>
          )}
          <Checkbox label={realm ? "Tell the realm's administrators in the console (the bell)" : "Tell the organization's managers in the console (the bell)"} {...form.getInputProps('console', { type: 'checkbox' })} />
          <TagsInput
            label="Mail to"
            description={`Up to ${alertLimits.emails} addresses; press Enter after each.`}
            maxTags={alertLimits.emails}
            splitChars={[',', ' ', ';']}
            {...form.getInputProps('emails')}
          />
          <TextInput
            label="Webhook URL"
            description="An https:// (or http://) address that takes a signed JSON POST; a new URL gets a new signing secret."
            placeholder="https://hooks.example.com/fleetlink"
            maxLength={alertLimits.url}
            {...form.getInputProps('webhookUrl')}
          />
          <Switch label="On" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
