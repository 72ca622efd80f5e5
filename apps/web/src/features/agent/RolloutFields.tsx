import { ROLLOUT_WAIT_MAX_MINUTES, ROLLOUT_WAVES_MAX, rolloutLabels, type RolloutForm, type RolloutMode, type WaveUnit } from '@fleetlink/contract';
import { Alert, Button, Group, NumberInput, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';

const unitOptions = [
  { value: 'percent', label: '% of the devices' },
  { value: 'devices', label: 'devices' },
];

/** Out-of-range values stay as typed, so the form says what is wrong (clamping would change them unseen). */
const CLAMP = 'none' as const;

/** A number field's value as the schema reads it: empty is null for an optional one, else the number. */
const numberOf = (value: string | number) => (value === '' ? null : Number(value));

/**
 * How a release reaches its devices (issue 65), in any form whose values hold `rollout`: all at once
 * (SPEC §2's release), or waves each reaching a share of the devices counted from the start, a time
 * each must stay healthy before the next starts, and the failures that halt it.
 */
export function RolloutFields<T extends { rollout: RolloutForm }>({ form }: { form: UseFormReturnType<T> }) {
  // Mantine's paths are strings; the form's own type cannot name them.
  const f = form as unknown as UseFormReturnType<{ rollout: RolloutForm }>;
  const r = f.values.rollout;
  const waveError = f.errors['rollout.waves'];
  return (
    <Stack gap="xs" data-testid="rollout-fields">
      <Title order={2} size="h4">Rollout</Title>
      <SegmentedControl
        aria-label="Rollout"
        value={r.mode}
        onChange={(mode) => f.setFieldValue('rollout.mode', mode as RolloutMode)}
        data={[
          { value: 'all', label: 'All at once' },
          { value: 'waves', label: 'In waves' },
        ]}
        w="fit-content"
      />
      {r.mode === 'all' ? (
        <Text size="sm" c="dimmed">
          Every device of the branch takes it at its next check.
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Each wave reaches a share of the devices, counted from the start; devices fall into waves by a hash of their id, decided when the rollout starts. The next wave starts once the one before stayed
            healthy for the wait; too many failures halt it.
          </Text>
          {r.waves.map((w, i) => (
            <Group key={f.key(`rollout.waves.${i}`)} align="flex-start" wrap="nowrap" data-testid="rollout-wave-row">
              <Text mt={8} w={70} size="sm">
                Wave {i + 1}
              </Text>
              <NumberInput
                clampBehavior={CLAMP}
                aria-label={`Wave ${i + 1} share`}
                min={1}
                allowDecimal={false}
                w={120}
                {...f.getInputProps(`rollout.waves.${i}.amount`)}
                onChange={(v) => f.setFieldValue(`rollout.waves.${i}.amount`, numberOf(v) as number)}
              />
              <Select
                aria-label={`Wave ${i + 1} unit`}
                data={unitOptions}
                allowDeselect={false}
                w={180}
                value={w.unit}
                onChange={(v) => f.setFieldValue(`rollout.waves.${i}.unit`, (v ?? 'percent') as WaveUnit)}
              />
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} disabled={r.waves.length < 2} onClick={() => f.removeListItem('rollout.waves', i)}>
                Remove wave
              </Button>
            </Group>
          ))}
          {typeof waveError === 'string' ? <Alert color="red">{waveError}</Alert> : null}
          <Group>
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              disabled={r.waves.length >= ROLLOUT_WAVES_MAX}
              onClick={() => f.insertListItem('rollout.waves', { unit: 'percent', amount: 100 })}
            >
              Add wave
            </Button>
          </Group>
          <Group align="flex-start">
            <NumberInput
                clampBehavior={CLAMP}
              label={rolloutLabels.wait}
              description="At most 7 days (10080 minutes)."
              min={0}
              max={ROLLOUT_WAIT_MAX_MINUTES}
              w={220}
              {...f.getInputProps('rollout.waitMinutes')}
              onChange={(v) => f.setFieldValue('rollout.waitMinutes', numberOf(v) as number)}
            />
            <NumberInput
                clampBehavior={CLAMP}
              label={rolloutLabels.failurePercent}
              description="Failed or rolled back, 0 to 100."
              min={0}
              max={100}
              w={220}
              {...f.getInputProps('rollout.failurePercent')}
              onChange={(v) => f.setFieldValue('rollout.failurePercent', numberOf(v) as number)}
            />
            <NumberInput
                clampBehavior={CLAMP}
              label={rolloutLabels.failureCount}
              description="Empty: the share alone."
              min={1}
              allowDecimal={false}
              w={200}
              {...f.getInputProps('rollout.failureCount')}
              value={r.failureCount ?? ''}
              onChange={(v) => f.setFieldValue('rollout.failureCount', numberOf(v))}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
