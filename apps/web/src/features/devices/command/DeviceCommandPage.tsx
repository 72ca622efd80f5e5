import {
  COMMAND_NAME_MAX,
  COMMAND_PARAMETER_NAME_MAX,
  COMMAND_PARAMETER_VALUE_MAX,
  COMMAND_PARAMETERS_MAX,
  CommandName,
  FILE_COMMAND,
  commandFormDefaults,
  commandFormSchema,
  type CommandFormInput,
} from '@fleetlink/contract';
import { ActionIcon, Autocomplete, Button, Card, Group, Loader, Select, Stack, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useCurrentDevice } from '../detail/DeviceLayout';
import { CommandAnswer, CommandFailure, ListingAnswer } from './CommandAnswer';
import { useCommandHistory, useRunCommand } from './command-api';
import { commandLine, RECENT_COMMANDS_MAX, recentCommands } from './recent-commands';

/**
 * /devices/{id}/command (realm ADMIN, SPEC §2): a command name and name/value parameters, run on the
 * device; the page stays usable while the device works, and shows its answer when it comes.
 */
export function DeviceCommandPage() {
  const device = useCurrentDevice();
  const run = useRunCommand(device.id);
  const form = useForm<CommandFormInput>({
    mode: 'controlled',
    initialValues: { name: commandFormDefaults.name, parameters: commandFormDefaults.parameters.map((p) => ({ ...p })) },
    validate: schemaResolver(commandFormSchema, { sync: true }),
    validateInputOnBlur: true,
    // A field says what is wrong as soon as it is dirty, as every form does (SPEC §5).
    validateInputOnChange: true,
  });
  const rows = form.values.parameters ?? [];
  const formRef = useRef<HTMLFormElement>(null);
  const history = recentCommands(useCommandHistory(device.id).data?.entries ?? []);
  // Enter in the last field runs the command, as in the name field (Shift+Enter: a new line in a value).
  const runOnEnter = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    formRef.current?.requestSubmit();
  };

  return (
    <Stack maw={900}>
      <form ref={formRef} noValidate onSubmit={form.onSubmit((values) => run.mutate(commandFormSchema.parse(values)))}>
        <Stack>
          {history.length ? (
            <Select
              label="Run again"
              placeholder={`One of the last ${RECENT_COMMANDS_MAX} commands run on this device`}
              data={history.map((c, i) => ({ value: String(i), label: commandLine(c) }))}
              value={null}
              onChange={(i) => {
                const chosen = i === null ? undefined : history[Number(i)];
                if (chosen) form.setValues({ name: chosen.name, parameters: (chosen.parameters ?? []).map((p) => ({ ...p })) });
              }}
              data-testid="command-history"
            />
          ) : null}
          <Autocomplete
            label="Command"
            withAsterisk
            maxLength={COMMAND_NAME_MAX}
            data={[...Object.values(CommandName), FILE_COMMAND]}
            description="execute runs the parameter command in the device’s shell (parameter timeout: seconds, default 30, at most 300); ping answers at once; restart restarts the agent; update installs the agent bundle of the newest release of the device’s branch (an agent installed with the installer), trying again one that failed; file lists the folder of the parameter path."
            {...form.getInputProps('name')}
          />
          <Stack gap="xs" aria-label="Parameters">
            <Text size="sm" fw={500}>
              Parameters
            </Text>
            {rows.map((_, i) => (
              <Group key={form.key(`parameters.${i}`)} align="flex-start" wrap="nowrap" data-testid="command-parameter">
                <TextInput
                  aria-label={`Parameter ${i + 1} name`}
                  placeholder="Name"
                  withAsterisk
                  w={200}
                  maxLength={COMMAND_PARAMETER_NAME_MAX}
                  {...form.getInputProps(`parameters.${i}.name`)}
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
                  {...form.getInputProps(`parameters.${i}.value`)}
                  onKeyDown={i === rows.length - 1 ? runOnEnter : undefined}
                />
                <Tooltip label="Remove parameter" withArrow>
                  <ActionIcon variant="subtle" color="gray" mt={4} aria-label={`Remove parameter ${i + 1}`} onClick={() => form.removeListItem('parameters', i)}>
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
                onClick={() => form.insertListItem('parameters', { name: '', value: '' })}
              >
                Add parameter
              </Button>
            </Group>
          </Stack>
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={run.isPending}>
              Run
            </Button>
          </Group>
        </Stack>
      </form>
      {run.isPending ? <Running name={run.variables?.name ?? ''} device={device.name} /> : null}
      {run.isError && !run.isPending ? <CommandFailure error={run.error} /> : null}
      {run.data && !run.isPending && !run.isError ? (
        'files' in run.data ? (
          <ListingAnswer deviceId={device.id} listing={run.data} />
        ) : (
          <CommandAnswer name={run.variables?.name ?? ''} output={run.data} />
        )
      ) : null}
    </Stack>
  );
}

/** What shows while the device works: a spinner and the seconds so far. */
function Running({ name, device }: { name: string; device: string }) {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Card withBorder radius="md" data-testid="command-running">
      <Group gap="sm">
        <Loader size="sm" />
        <Title order={5} style={{ overflowWrap: 'anywhere' }}>
          Running {name} on {device}… {Math.floor((now - started) / 1000)} s
        </Title>
      </Group>
    </Card>
  );
}
