import { CommandName, FILE_COMMAND, commandFormDefaults, commandFormSchema, type CommandFormInput } from '@fleetlink/contract';
import { Card, Group, Loader, Select, Stack, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { BusyButton } from '../../../app/forms/BusyButton';
import { useCurrentDevice } from '../detail/current-device';
import { useAnnouncedAnswer } from './useAnnouncedAnswer';
import { CommandAnswer, CommandFailure, ListingAnswer } from './CommandAnswer';
import { CommandFields } from './CommandFields';
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
    // A field says what is wrong as soon as it is dirty, as every form does (SPEC §5).
    validateInputOnChange: true,
  });
  const rows = form.values.parameters ?? [];
  useAnnouncedAnswer(run);
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
      <form
        ref={formRef}
        noValidate
        onSubmit={form.onSubmit((values) => {
          // Enter in a field sends the form even while the last command runs: one at a time.
          if (!run.isPending) run.mutate(commandFormSchema.parse(values));
        })}
      >
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
          <CommandFields
            form={form}
            rows={rows}
            names={[...Object.values(CommandName), FILE_COMMAND]}
            description="execute runs the parameter command in the device’s shell (parameter timeout: seconds, default 30, at most 300); ping answers at once; restart restarts the agent; update installs the agent bundle of the newest release of the device’s branch (an agent installed with the installer), trying again one that failed; file lists the folder of the parameter path."
            onLastEnter={runOnEnter}
          />
          <Group justify="flex-end">
            <BusyButton type="submit" leftSection={<IconPlayerPlay size={16} />} busy={run.isPending}>
              Run
            </BusyButton>
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
        <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
          Running {name} on {device}… {Math.floor((now - started) / 1000)} s
        </Title>
      </Group>
    </Card>
  );
}
