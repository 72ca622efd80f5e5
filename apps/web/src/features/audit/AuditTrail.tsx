import type { AuditFilter } from '@fleetlink/contract';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from '../../router/router';
import { useAuditExport, useAuditPage, type AuditSource } from './audit-api';
import { filterFromParams, filterToParams } from './audit-filter-params';
import { AuditFilters } from './AuditFilters';
import { AuditTable } from './AuditTable';

/** Pages of one filtered view, walked by cursor; Newer goes back through the cursors already seen. */
function AuditPages({ source, filter }: { source: AuditSource; filter: AuditFilter }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const { data, isPending, isError, isFetching } = useAuditPage(source, filter, cursors.at(-1));
  if (isPending) return <Loader />;
  if (isError || !data) return <Alert color="red">The audit trail could not be loaded.</Alert>;
  const pageNumber = cursors.length + 1;

  return (
    <Stack>
      {data.entries.length ? (
        <AuditTable entries={data.entries} />
      ) : (
        <Text c="dimmed">{pageNumber === 1 ? 'Nothing recorded matches this filter.' : 'No older entries.'}</Text>
      )}
      <Group justify="space-between">
        <Button variant="default" leftSection={<IconChevronLeft size={16} />} disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </Button>
        <Group gap="xs">
          {isFetching ? <Loader size="xs" /> : null}
          <Text size="sm" c="dimmed">
            Page {pageNumber}
          </Text>
        </Group>
        <Button variant="default" rightSection={<IconChevronRight size={16} />} disabled={!data.next} onClick={() => data.next && setCursors((c) => [...c, data.next!])}>
          Older
        </Button>
      </Group>
    </Stack>
  );
}

/** Filters, newest-first pages and CSV export of an audit trail; the filter lives in the page's address. */
export function AuditTrail({ source }: { source: AuditSource }) {
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params);
  const exportCsv = useAuditExport(source);
  const filterKey = filterToParams(filter).toString();

  return (
    <Stack>
      <AuditFilters key={`filters?${filterKey}`} value={filter} onApply={(f) => setParams(filterToParams(f))}>
        <Button variant="light" leftSection={<IconDownload size={16} />} loading={exportCsv.isPending} onClick={() => exportCsv.mutate(filter)}>
          Export CSV
        </Button>
      </AuditFilters>
      {/* A new filter starts again from the newest page. */}
      <AuditPages key={`pages?${filterKey}`} source={source} filter={filter} />
    </Stack>
  );
}
