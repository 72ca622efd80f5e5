import { Button, Center, Group, Loader, Stack, Table, Text, Badge } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from '../../router/router';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { formatDateTime } from '../../app/format/date-format';
import { jobTitle, scheduleText, stateColor } from './job-text';
import { useJobs } from './jobs-api';
import { PageTitle } from '../../app/a11y/PageTitle';
import { TableScroller } from '../../app/tables/TableScroller';

/** /jobs (realm ADMIN, issue 64): the person's jobs, newest first, with their latest run's progress. */
export function JobsListPage() {
  const jobs = useJobs();
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'Jobs' }]} />
      <Group justify="space-between">
        <PageTitle title="Jobs" size="h2" />
        <Button component={Link} to="/jobs/new" leftSection={<IconPlus size={16} />}>
          New job
        </Button>
      </Group>
      {jobs.isLoading ? (
        <Center p="xl">
          <Loader />
        </Center>
      ) : !jobs.data?.jobs.length ? (
        <Text c="dimmed">No jobs yet. A job runs a command on many devices at once, now or on a schedule; devices offline get it when they come online.</Text>
      ) : (
        <TableScroller label="Jobs" minWidth={700}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Latest run</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {jobs.data.jobs.map((job) => {
                const run = job.lastRun;
                return (
                  <Table.Tr key={job.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Link to={`/jobs/${job.id}`}>{jobTitle(job)}</Link>
                    </Table.Td>
                    <Table.Td>{scheduleText(job)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={stateColor[job.state]}>
                        {job.state}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {run
                        ? `${run.counts.succeeded} succeeded, ${run.counts.failed} failed, ${run.counts.queued + run.counts.running} to go of ${run.total}`
                        : job.nextRunAt
                          ? `First at ${formatDateTime(new Date(job.nextRunAt))}`
                          : '—'}
                    </Table.Td>
                    <Table.Td>{formatDateTime(new Date(job.createdAt))}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScroller>
      )}
    </Stack>
  );
}
