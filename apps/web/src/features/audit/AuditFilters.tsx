import { auditFilterSchema, auditKindLabels, auditKinds, type AuditFilter } from '@fleetlink/contract';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { fromLocalInput, toLocalInput } from './audit-filter-params';

const kindOptions = auditKinds.map((k) => ({ value: k, label: auditKindLabels[k] })).sort((a, b) => a.label.localeCompare(b.label));
const outcomeOptions = [
  { value: 'ok', label: 'Succeeded' },
  { value: 'error', label: 'Failed' },
];

interface Draft {
  who: string;
  device: string;
  kind: string | null;
  outcome: string | null;
  from: string;
  to: string;
}

const draftOf = (f: AuditFilter): Draft => ({
  who: f.who ?? '',
  device: f.device ?? '',
  kind: f.kind ?? null,
  outcome: f.outcome ?? null,
  from: toLocalInput(f.from),
  to: toLocalInput(f.to),
});

interface AuditFiltersProps {
  value: AuditFilter;
  onApply: (filter: AuditFilter) => void;
  /** Shown at the end of the buttons row (the export). */
  children?: React.ReactNode;
}

/** Who, device, kind, outcome and time range; applied together, checked with the API's own rules. */
export function AuditFilters({ value, onApply, children }: AuditFiltersProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(value));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof Draft) => (v: string | null) => setDraft((d) => ({ ...d, [key]: v ?? '' }));

  function apply(event: React.FormEvent) {
    event.preventDefault();
    const parsed = auditFilterSchema.safeParse({
      who: draft.who || undefined,
      device: draft.device || undefined,
      kind: draft.kind || undefined,
      outcome: draft.outcome || undefined,
      from: fromLocalInput(draft.from),
      to: fromLocalInput(draft.to, true),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    onApply(parsed.data);
  }

  function clear() {
    setDraft(draftOf({}));
    setErrors({});
    onApply({});
  }

  return (
    <form onSubmit={apply} noValidate aria-label="Filter the audit trail">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} spacing="sm">
          <TextInput label="Who" placeholder="user@example.com" value={draft.who} error={errors.who} onChange={(e) => set('who')(e.currentTarget.value)} />
          <TextInput label="Device" placeholder="Name or id" value={draft.device} error={errors.device} onChange={(e) => set('device')(e.currentTarget.value)} />
          <Select label="Action" placeholder="Any" clearable data={kindOptions} value={draft.kind} onChange={set('kind')} error={errors.kind} />
          <Select label="Outcome" placeholder="Any" clearable data={outcomeOptions} value={draft.outcome} onChange={set('outcome')} />
          <TextInput label="From" type="datetime-local" value={draft.from} error={errors.from} onChange={(e) => set('from')(e.currentTarget.value)} />
          <TextInput label="To" type="datetime-local" value={draft.to} error={errors.to} onChange={(e) => set('to')(e.currentTarget.value)} />
        </SimpleGrid>
        <Group justify="space-between">
          <Group gap="xs">
            <Button type="submit" leftSection={<IconFilter size={16} />}>
              Filter
            </Button>
            <Button variant="default" leftSection={<IconX size={16} />} onClick={clear}>
              Clear
            </Button>
          </Group>
          {children}
        </Group>
      </Stack>
    </form>
  );
}
