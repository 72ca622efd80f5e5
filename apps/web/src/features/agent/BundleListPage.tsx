import { formatBytes } from '@fleetlink/contract';
import { Button, FileButton, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { useNavigate } from '../../router/router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { UploadProgressPanel } from '../../app/forms/UploadProgressPanel';
import { useBundles, useDeleteBundle, useUploadBundle } from './release-api';
import { ActionsHeader } from '../../app/tables/ActionsHeader';

/** /agent/bundles (SPEC §2): Upload bundle, and the table Name, Version (newest first per name). */
export function BundleListPage() {
  const navigate = useNavigate();
  const bundles = useBundles();
  const upload = useUploadBundle();
  const remove = useDeleteBundle();
  // The input forgets its file, so the same file can be chosen again (after a refusal, say).
  const reset = useRef<() => void>(null);
  const choose = async (file: File | null) => {
    reset.current?.();
    if (file && (await upload.start(file))) void navigate('/agent/bundles');
  };
  return (
    <Stack>
      <Group justify="flex-end">
        <FileButton onChange={(f) => void choose(f)} resetRef={reset} accept=".tar.gz,.tgz,application/gzip,application/x-tar">
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} disabled={upload.state !== null}>
              Upload bundle
            </Button>
          )}
        </FileButton>
      </Group>
      {upload.state ? <UploadProgressPanel state={upload.state} afterSent={`Checking ${upload.state.name}…`} onCancel={upload.cancel} testId="bundle-upload-progress" /> : null}
      {bundles.isPending ? (
        <Loader />
      ) : bundles.data?.length ? (
        <Table striped highlightOnHover data-testid="bundle-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Version</Table.Th>
              <ActionsHeader w={1} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bundles.data.map((b) => (
              <Table.Tr key={`${b.name} ${b.version}`}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{b.name}</Table.Td>
                <Table.Td>
                  <Tooltip label={`${formatBytes(b.size)} · SHA-256 ${b.sha256}`} multiline maw={360}>
                    <Text span size="sm" ff="monospace">
                      {b.version}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <ConfirmButton
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    aria-label={`Delete bundle ${b.name} ${b.version}`}
                    question={`Delete bundle ${b.name} ${b.version}?`}
                    onConfirm={() => remove.mutateAsync(b)}
                  >
                    <IconTrash size={16} />
                  </ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No bundles are uploaded yet.</Text>
      )}
    </Stack>
  );
}
