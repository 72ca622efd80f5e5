import { CommandName, JOB_EXPIRY_HOURS_MAX, jobFormSchema, parseCron, type JobForm, type JobPreview } from '@fleetlink/contract';
import { Autocomplete, Button, Card, Group, NumberInput, SegmentedControl, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from '../../router/router';
import { ApiRequestError } from '../../app/api/api-error';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { ConfirmModal } from '../../app/forms/ConfirmModal';
import { formatDateTime } from '../../app/format/date-format';
import { CommandFields } from '../devices/command/CommandFields';
import { useDeviceTags } from '../devices/device-api';
import { useMyOrganizations } from '../organizations/organization-api';
import { cronInWords } from './cron-words';
import { initialJobValues, toFormErrors, toJobForm, type JobFormValues, type TargetKind, type WhenKind } from './job-form-values';
import { useCreateJob, useJobPreview } from './jobs-api';
import { PageTitle } from '../../app/a11y/PageTitle';

const COMMAND_HELP =
  'execute runs the parameter command in each device’s shell (parameter timeout: seconds, default 30, at most 300); ping answers at once; restart restarts the agent; update installs the newest release of the device’s branch.';

/** The zod issues of the API's form, as the page's field errors. */
function validate(values: JobFormValues): Record<string, string> {
  const parsed = jobFormSchema.safeParse(toJobForm(values));
  if (parsed.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.')] ??= issue.message;
  return toFormErrors(fields);
}

/**
 * /jobs/new (realm ADMIN, issue 64): a command for many devices, now, once later or on a cron
 * schedule. The console counts the devices first, and the person confirms that number.
 */
export function NewJobPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const form = useForm<JobFormValues>({ mode: 'controlled', initialValues: initialJobValues(params), validate, validateInputOnChange: true });
  const preview = useJobPreview();
  const create = useCreateJob();
  const [confirming, setConfirming] = useState<{ form: JobForm; preview: JobPreview }>();
  const tags = useDeviceTags().data ?? [];
  const organizations = useMyOrganizations().data ?? [];
  const v = form.values;
  const fieldErrors = (err: unknown) => err instanceof ApiRequestError && err.fields && form.setErrors(toFormErrors(err.fields));

  const review = (values: JobFormValues) => {
    const job = jobFormSchema.parse(toJobForm(values));
    preview.mutate(job, { onSuccess: (p) => setConfirming({ form: job, preview: p }), onError: fieldErrors });
  };
  const confirm = () =>
    confirming &&
    create.mutate(confirming.form, {
      onSuccess: (job) => navigate(`/jobs/${job.id}`),
      onError: (err) => {
        setConfirming(undefined);
        fieldErrors(err);
      },
    });

  return (
    <Stack maw={900}>
      <AppBreadcrumbs items={[{ label: 'Jobs', to: '/jobs' }, { label: 'New job' }]} />
      <PageTitle title="Run a command on many devices" size="h2" />
      <form noValidate onSubmit={form.onSubmit(review)}>
        <Stack>
          <Card withBorder>
            <Stack>
              <Title order={2} size="h4">Command</Title>
              <CommandFields form={form} prefix="command." rows={v.command.parameters ?? []} names={Object.values(CommandName)} description={COMMAND_HELP} />
            </Stack>
          </Card>

          <Card withBorder>
            <Stack>
              <Title order={2} size="h4">Devices</Title>
              <SegmentedControl
                aria-label="Target"
                value={v.targetKind}
                onChange={(kind) => form.setFieldValue('targetKind', kind as TargetKind)}
                data={[
                  { value: 'search', label: 'Search' },
                  { value: 'tag', label: 'Tag' },
                  { value: 'organization', label: 'Organization' },
                  { value: 'devices', label: 'Picked devices' },
                ]}
              />
              {form.errors.targetKind ? (
                <Text c="red" size="sm" role="alert">
                  {form.errors.targetKind}
                </Text>
              ) : null}
              {v.targetKind === 'search' ? (
                <Group align="flex-start" grow>
                  <TextInput label="Search text" description="As on Find devices: name, description, tags, addresses; empty for all." {...form.getInputProps('search')} />
                  <Select
                    label="Status"
                    data={[
                      { value: '', label: 'All' },
                      { value: 'online', label: 'Online' },
                      { value: 'offline', label: 'Offline' },
                    ]}
                    allowDeselect={false}
                    {...form.getInputProps('status')}
                  />
                </Group>
              ) : v.targetKind === 'tag' ? (
                <Autocomplete label="Tag" required data={tags} {...form.getInputProps('tag')} />
              ) : v.targetKind === 'organization' ? (
                <Select label="Organization" required data={organizations.map((o) => ({ value: o.id, label: o.name }))} searchable {...form.getInputProps('organizationId')} />
              ) : (
                <Textarea label="Device ids" description="One per line." required autosize minRows={2} maxRows={10} {...form.getInputProps('ids')} />
              )}
              <Text size="sm" c="dimmed">
                Devices are chosen when the job starts, among those of your organizations.
              </Text>
            </Stack>
          </Card>

          <Card withBorder>
            <Stack>
              <Title order={2} size="h4">When</Title>
              <SegmentedControl
                aria-label="When"
                value={v.when}
                onChange={(when) => form.setFieldValue('when', when as WhenKind)}
                data={[
                  { value: 'now', label: 'Now' },
                  { value: 'once', label: 'Once, later' },
                  { value: 'cron', label: 'Repeating' },
                ]}
              />
              {v.when === 'once' ? <TextInput type="datetime-local" label="Start time" required {...form.getInputProps('at')} /> : null}
              {v.when === 'cron' ? <CronField expression={v.expression} inputProps={form.getInputProps('expression')} /> : null}
              <NumberInput
                label="Expiry (hours)"
                description="How long a device offline when a run starts may still get the command (at most 30 days)."
                min={1}
                max={JOB_EXPIRY_HOURS_MAX}
                allowDecimal={false}
                w={260}
                {...form.getInputProps('expiryHours')}
              />
            </Stack>
          </Card>

          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={preview.isPending}>
              Review
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmModal
        opened={!!confirming}
        question={confirming ? <ConfirmQuestion form={confirming.form} preview={confirming.preview} /> : null}
        confirmLabel={confirming?.form.schedule.kind === 'now' ? 'Run' : 'Schedule'}
        pending={create.isPending}
        onClose={() => setConfirming(undefined)}
        onConfirm={confirm}
        questionTestId="job-confirm"
      />
    </Stack>
  );
}

function ConfirmQuestion({ form, preview }: { form: JobForm; preview: JobPreview }) {
  const n = preview.devices;
  return (
    <>
      {`Run '${form.command.name}' on ${n.toLocaleString('en')} device${n === 1 ? '' : 's'}?`}
      {preview.nextRuns.length ? (
        <>
          <br />
          {`First run ${formatDateTime(new Date(preview.nextRuns[0]!))}; devices are counted again then.`}
        </>
      ) : null}
    </>
  );
}

/** The cron expression, in words and with its next three times as this browser reads it (the console checks it again). */
function CronField({ expression, inputProps }: { expression: string; inputProps: ReturnType<UseFormReturnType<JobFormValues>['getInputProps']> }) {
  const cron = parseCron(expression, { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const words = 'error' in cron ? undefined : cronInWords(expression);
  return (
    <Stack gap={4}>
      <TextInput
        label="Cron expression"
        description="Five fields: minute, hour, day of month, month, day of week (your time zone)."
        required
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...inputProps}
      />
      {'error' in cron ? (
        <Text size="sm" c="dimmed">
          {cron.error}
        </Text>
      ) : (
        <Text size="sm" data-testid="cron-words">
          {words ? `${words}. ` : ''}Next: {cron.nextRuns(3).map((d) => formatDateTime(d)).join(', ')}
        </Text>
      )}
    </Stack>
  );
}
