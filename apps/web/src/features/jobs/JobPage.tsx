import { jobResultStateLabels, jobResultStates, type Job, type JobResultState, type JobRun } from '@fleetlink/contract';
import { Alert, Badge, Button, Center, Group, Loader, Modal, Select, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconDownload, IconPlayerStop, IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from '../../router/router';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { formatDateTime } from '../../app/format/date-format';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { JobResultOutputModal } from './JobResultOutputModal';
import { jobTitle, scheduleText, stateColor } from './job-text';
import { useCancelJob, useExportJobResults, useJob, useJobResults, useRerunFailed } from './jobs-api';
import { PageTitle } from '../../app/a11y/PageTitle';
import { TableScroller } from '../../app/tables/TableScroller';

/**
 * /jobs/{id} (issue 64): a job, the counts of its run by state (kept current by live updates), and
 * the run's results a page at a time, filtered by state; each row links to its device and opens its
 * output. A repeating job lists its runs.
 */
export function JobPage() {
  const { id = '' } = useParams();
  const job = useJob(id);
  const [runId, setRunId] = useState<string | null>(null);
  if (job.isLoading) return <Center p="xl"><Loader /></Center>;
  if (!job.data) return <NotFoundPage />;
  const run = job.data.runs.find((r) => r.id === runId) ?? job.data.runs[0];
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Jobs', to: '/jobs' }, { label: jobTitle(job.data) }]} />
      <JobHeader job={job.data} run={run} />
      {job.data.runs.length > 1 ? (
        <Select
          label="Run"
          w={360}
          allowDeselect={false}
          value={run?.id ?? null}
          onChange={setRunId}
          data={job.data.runs.map((r) => ({ value: r.id, label: `Run ${r.number}, started ${formatDateTime(new Date(r.startedAt))}` }))}
        />
      ) : null}
      {run ? <RunResults key={run.id} job={job.data} run={run} /> : <Text c="dimmed">No run yet{job.data.nextRunAt ? `: the first starts ${formatDateTime(new Date(job.data.nextRunAt))}.` : '.'}</Text>}
    </Stack>
  );
}

function JobHeader({ job, run }: { job: Job; run: JobRun | undefined }) {
  const cancel = useCancelJob(job.id);
  const rerun = useRerunFailed(job.id);
  const exportCsv = useExportJobResults(job.id);
  const navigate = useNavigate();
  const stoppable = job.state === 'scheduled' || job.state === 'active';
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="sm">
            <PageTitle title={jobTitle(job)} size="h2" style={{ overflowWrap: 'anywhere' }} />
            <Badge color={stateColor[job.state]} variant="light" data-testid="job-state">
              {job.state}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {scheduleText(job)} · expires after {job.expiryHours} h · created {formatDateTime(new Date(job.createdAt))}
            {job.nextRunAt ? ` · next run ${formatDateTime(new Date(job.nextRunAt))}` : ''}
          </Text>
          {job.rerunOf ? (
            <Text size="sm">
              Runs again the failed devices of <Link to={`/jobs/${job.rerunOf}`}>an earlier job</Link>.
            </Text>
          ) : null}
        </Stack>
        <Group>
          {run && run.counts.failed > 0 ? (
            <Button variant="light" leftSection={<IconRepeat size={16} />} loading={rerun.isPending} onClick={() => rerun.mutate(run.id, { onSuccess: (j) => navigate(`/jobs/${j.id}`) })}>
              Run again on the failed ones
            </Button>
          ) : null}
          {run ? (
            <Button variant="default" leftSection={<IconDownload size={16} />} loading={exportCsv.isPending} onClick={() => exportCsv.mutate({ runId: run.id, number: run.number })}>
              Export CSV
            </Button>
          ) : null}
          {stoppable ? (
            <ConfirmButton
              color="red"
              variant="light"
              leftSection={<IconPlayerStop size={16} />}
              question="Cancel this job? Devices not yet sent the command will not get it, and no further run starts."
              confirmLabel="Cancel job"
              onConfirm={() => cancel.mutate()}
            >
              Cancel
            </ConfirmButton>
          ) : null}
        </Group>
      </Group>
    </Stack>
  );
}

/** The run's counts (each one filters the table) and a page of its results. */
function RunResults({ job, run }: { job: Job; run: JobRun }) {
  const [state, setState] = useState<JobResultState | null>(null);
  // Keyset paging: the cursors of the pages before this one, to go back.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const page = useJobResults(job.id, run.id, state, after);
  const [shown, setShown] = useState<{ deviceId: string; deviceName: string } | null>(null);
  const filter = (next: JobResultState | null) => {
    setState(next);
    setCursors([null]);
  };
  const done = run.total - run.counts.queued - run.counts.running;

  return (
    <Stack>
      <Text aria-live="polite" data-testid="job-progress">
        {run.state === 'running' ? `Run ${run.number}: ${done} of ${run.total} done.` : `Run ${run.number} ${run.state}: ${run.total} device${run.total === 1 ? '' : 's'}.`}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs" role="group" aria-label="Results by state">
        {jobResultStates.map((s) => (
          <UnstyledButton
            key={s}
            onClick={() => filter(state === s ? null : s)}
            aria-pressed={state === s}
            data-testid={`count-${s}`}
            style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, padding: 8, outline: state === s ? '2px solid var(--mantine-primary-color-filled)' : undefined }}
          >
            <Text size="xs" c="dimmed">
              {jobResultStateLabels[s]}
            </Text>
            <Text fw={700} size="lg">
              {run.counts[s].toLocaleString('en')}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <Group justify="space-between">
        <Select
          label="Show"
          w={220}
          allowDeselect={false}
          value={state ?? 'all'}
          onChange={(v) => filter(v === 'all' || !v ? null : (v as JobResultState))}
          data={[{ value: 'all', label: 'All states' }, ...jobResultStates.map((s) => ({ value: s, label: jobResultStateLabels[s] }))]}
        />
      </Group>
      {page.isError ? <Alert color="red">The results could not be read.</Alert> : null}
      <TableScroller label="Results" minWidth={760}>
        <Table striped highlightOnHover data-testid="job-results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Exit code</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Output</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(page.data?.results ?? []).map((r) => (
              <Table.Tr key={r.deviceId}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Link to={`/devices/${r.deviceId}`}>{r.deviceName}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={stateColor[r.state]}>
                    {jobResultStateLabels[r.state]}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.exitCode ?? '—'}</Table.Td>
                <Table.Td>{r.durationMs === null ? '—' : r.durationMs < 1000 ? `${r.durationMs} ms` : `${(r.durationMs / 1000).toFixed(1)} s`}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.reason ?? ''}</Table.Td>
                <Table.Td>
                  {r.finishedAt && r.state !== 'cancelled' && r.state !== 'expired' && r.state !== 'skipped' ? (
                    <Button size="compact-sm" variant="subtle" onClick={() => setShown(r)} aria-label={`Show output of ${r.deviceName}`}>
                      Show
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroller>
      {page.data && !page.data.results.length ? <Text c="dimmed">{state ? `No device is ${jobResultStateLabels[state].toLowerCase()}.` : 'No devices.'}</Text> : null}
      <Group justify="flex-end">
        <Button variant="default" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </Button>
        <Button variant="default" disabled={!page.data?.next} onClick={() => page.data?.next && setCursors([...cursors, page.data.next])}>
          Next page
        </Button>
      </Group>
      <Modal opened={!!shown} onClose={() => setShown(null)} title={shown ? `Output of ${shown.deviceName}` : ''} size="xl">
        {shown ? <JobResultOutputModal jobId={job.id} runId={run.id} deviceId={shown.deviceId} /> : null}
      </Modal>
    </Stack>
  );
}
