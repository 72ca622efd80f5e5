import { COMMAND_NAME_MAX, COMMAND_PARAMETER_NAME_MAX, COMMAND_PARAMETER_VALUE_MAX, COMMAND_PARAMETERS_MAX } from '@fleetlink/contract';
import { ActionIcon, Autocomplete, Button, Group, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';

interface CommandFieldsProps<V> {
  form: UseFormReturnType<V>;
  /** Where the command sits in the form's values: '' (the Command page), 'command.' (a job). */
  prefix?: string;
  rows: readonly unknown[];
  /** The command names offered. */
  names: string[];
  description: string;
  /** Enter in the last value (not Shift+Enter) does what the form does. */
  onLastEnter?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}

/**
 * A command's name and its name/value parameters (SPEC §5), as the Command page and the job form
 * both ask for them, validated by the same contract schema.
 */
export function CommandFields<V>({ form, prefix = '', rows, names, description, onLastEnter }: CommandFieldsProps<V>) {
  return (
    <>
      <Autocomplete
        label="Command"
        required
        maxLength={COMMAND_NAME_MAX}
        data={names}
        description={description}
        {...form.getInputProps(`${prefix}name`)}
      />
      <Stack gap="xs" aria-label="Parameters">
        <Text size="sm" fw={500}>
          Parameters
        </Text>
        {rows.map((_, i) => (
          <Group key={form.key(`${prefix}parameters.${i}`)} align="flex-start" wrap="nowrap" data-testid="command-parameter">
            <TextInput
              aria-label={`Parameter ${i + 1} name`}
              placeholder="Name"
              required
              w={200}
              maxLength={COMMAND_PARAMETER_NAME_MAX}
              {...form.getInputProps(`${prefix}parameters.${i}.name`)}
            />
            <Textarea
              aria-label={`Parameter ${i + 1} value`}
              placeholder="Value"
              autosize
              minRows={1}
              maxRows={8}
              style={{ flex: 1 }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              maxLength={COMMAND_PARAMETER_VALUE_MAX}
              {...form.getInputProps(`${prefix}parameters.${i}.value`)}
              onKeyDown={i === rows.length - 1 ? onLastEnter : undefined}
            />
            <Tooltip label="Remove parameter" withArrow>
              <ActionIcon variant="subtle" color="gray" mt={4} aria-label={`Remove parameter ${i + 1}`} onClick={() => form.removeListItem(`${prefix}parameters`, i)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No parameters.
          </Text>
        ) : null}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            disabled={rows.length >= COMMAND_PARAMETERS_MAX}
            // The row's type is the form's own, which this component does not know; an empty row fits every one.
            onClick={() => form.insertListItem(`${prefix}parameters`, { name: '', value: '' } as never)}
          >
            Add parameter
          </Button>
        </Group>
      </Stack>
    </>
  );
}
