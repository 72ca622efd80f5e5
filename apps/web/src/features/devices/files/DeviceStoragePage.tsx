import { driveOf, type FileEntry } from '@fleetlink/contract';
import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Select, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconChartPie, IconFolderPlus, IconPlugConnectedX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from '../../../router/router';
import { announce } from '../../../app/a11y/announcer';
import { useCurrentDevice } from '../detail/current-device';
import { deviceKeys } from '../device-api';
import { DeleteEntryModal } from './DeleteEntryModal';
import { DriveUsage } from './DriveUsage';
import { FileNameModal } from './FileNameModal';
import { UploadButton, UploadProgress } from './FileUpload';
import { FileTable } from './FileTable';
import { entryCount, locationParams, pageNote, pageSteps, readLocation, type FileLocation } from './file-location';
import { useCreateFolder, useDeleteFile, useDownloadFile, useFolderListing, useRenameFile, useScanDisk, useUploadFile } from './files-api';
import { usePublicConfig } from '../../../app/startup/usePublicConfig';

/**
 * A scan's end reaches the page over its live socket (issue 61) and BUSY turns into the result at
 * once; while a scan runs the device is also read this often, for a page whose socket is down.
 */
const SCAN_POLL_MS = 10_000;

/**
 * /devices/{id}/file (SPEC §2 Storage page, issue 26): drive selector, breadcrumb of ancestors, file
 * table, hidden toggle, New folder, row menu, and the drive's space with its last scan. The URL holds
 * the place, so back, forward and reload work. Needs the device online (SPEC §4).
 */
export function DeviceStoragePage() {
  const device = useCurrentDevice();
  if (!device.online) {
    return (
      <Alert color="gray" icon={<IconPlugConnectedX />} title="The device is offline" data-testid="storage-offline">
        The device must be online to browse its filesystems: its files are read from the agent when you open a folder. This page works again as soon as the agent is connected.
      </Alert>
    );
  }
  return <Storage />;
}

function Storage() {
  const device = useCurrentDevice();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = readLocation(params);
  const listing = useFolderListing(device.id, location, true);
  const createFolder = useCreateFolder(device.id);
  const rename = useRenameFile(device.id);
  const remove = useDeleteFile(device.id);
  const scan = useScanDisk(device.id);
  const upload = useUploadFile(device.id);
  const download = useDownloadFile(device.id);
  const config = usePublicConfig();
  const [newFolder, setNewFolder] = useState(false);
  const [renaming, setRenaming] = useState<FileEntry | null>(null);
  const [deleting, setDeleting] = useState<FileEntry | null>(null);

  const go = (next: Partial<FileLocation>) => setParams(locationParams({ ...location, offset: 0, ...next }));
  const data = listing.data;
  // A folder opened from the page: the control pressed goes with the old listing, so once the new
  // one is shown, focus moves to its name in the breadcrumb and the folder is announced (issue 71).
  // `opening` is the path asked for (undefined: the drive's root); null when nothing is being opened.
  const [opening, setOpening] = useState<string | undefined | null>(null);
  const currentFolder = useRef<HTMLParagraphElement>(null);
  const open = (path: string | undefined) => {
    setOpening(path);
    go({ path });
  };
  useEffect(() => {
    // The address changes a moment after the press: until then the old folder's listing is current.
    if (opening === null || location.path !== opening || !data || listing.isPlaceholderData) return;
    setOpening(null);
    currentFolder.current?.focus();
    const name = Object.values(data.ancestors).at(-1) ?? data.request.parameters.path;
    announce(`${name}: ${entryCount(data.total)}.`);
  }, [opening, location.path, data, listing.isPlaceholderData]);
  const folder = data?.request.parameters.path;
  // The agent's drives as the listing has them; until one came (or when it failed), as last reported.
  const drives = data?.drives ?? device.drives.map((d) => ({ name: d.name ?? d.root, root: d.root }));
  const place = folder ?? location.path;
  const driveRoot = place ? driveOf(drives, place) : undefined;
  const drive = device.drives.find((d) => d.root === driveRoot);
  const busy = drive?.detail?.status === 'BUSY';

  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void client.invalidateQueries({ queryKey: deviceKeys.detail(device.id) }), SCAN_POLL_MS);
    return () => clearInterval(timer);
  }, [busy, client, device.id]);

  const steps = data ? pageSteps(data.offset, data.files.length, data.total) : {};
  const note = data ? pageNote(data.offset, data.files.length, data.total) : undefined;
  // Above and below the table: a page of 500 rows is long.
  const paging = note ? (
    <Group justify="space-between" data-testid="file-paging">
      <Text size="sm" c="dimmed">
        {note}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={steps.previous === undefined} onClick={() => go({ offset: steps.previous })}>
          Previous
        </Button>
        <Button size="xs" variant="default" disabled={steps.next === undefined} onClick={() => go({ offset: steps.next })}>
          Next
        </Button>
      </Group>
    </Group>
  ) : null;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Drive"
            w={260}
            allowDeselect={false}
            data={drives.map((d) => ({ value: d.root, label: d.name && d.name !== d.root ? `${d.name} (${d.root})` : d.root }))}
            value={driveRoot ?? null}
            onChange={(root) => root && go({ path: root })}
          />
          <Switch label="Show hidden" checked={location.hidden} onChange={(e) => go({ hidden: e.currentTarget.checked })} mb={8} />
        </Group>
        <Group>
          <Button
            variant="default"
            leftSection={<IconChartPie size={16} />}
            disabled={!folder || busy}
            loading={scan.isPending}
            onClick={() => folder && scan.mutate(folder)}
            title="Measure the space used under each folder here"
          >
            {busy ? 'Scanning…' : 'Scan folder'}
          </Button>
          {device.canManage ? (
            <UploadButton upload={upload} folder={folder} taken={(name) => data?.files.some((f) => f.name === name) ?? false} maxBytes={config.uploadMaxBytes} />
          ) : null}
          {device.canManage ? (
            <Button leftSection={<IconFolderPlus size={16} />} disabled={!folder} onClick={() => setNewFolder(true)}>
              New folder
            </Button>
          ) : null}
        </Group>
      </Group>

      {data ? (
        <Group gap="sm" wrap="nowrap">
        <Breadcrumbs separatorMargin={4} aria-label="Folder" style={{ flexWrap: 'wrap' }} data-testid="folder-breadcrumb">
          {Object.entries(data.ancestors).map(([path, name], i, all) =>
            i < all.length - 1 ? (
              <Anchor key={path} component="button" type="button" size="sm" onClick={() => open(path)} style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Anchor>
            ) : (
              <Text key={path} ref={currentFolder} tabIndex={-1} size="sm" fw={500} aria-current="location" style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Text>
            ),
          )}
        </Breadcrumbs>
          {/* The previous folder stays while the next one is read: say that it is coming. */}
          {listing.isPlaceholderData ? <Loader size="xs" aria-label="Reading the folder" /> : null}
        </Group>
      ) : null}

      {listing.isLoading ? (
        <Group gap="sm">
          <Loader size="sm" />
          <Text size="sm">Reading the folder from the device…</Text>
        </Group>
      ) : null}
      {listing.isError && !data ? (
        <Alert color="red" title="The folder could not be read" data-testid="storage-error">
          {listing.error.message}
          {location.path ? (
            <>
              {' '}
              <Anchor component="button" type="button" size="sm" onClick={() => go({ path: undefined })}>
                Go to the first drive
              </Anchor>
            </>
          ) : null}
        </Alert>
      ) : null}

      <UploadProgress upload={upload} />

      {/* Above the listing (issue 59): a scan's answer is what the person waited for. */}
      {drive ? <DriveUsage drive={drive} onOpen={open} /> : null}

      {data ? (
        <>
          {paging}
          <FileTable
            files={data.files}
            canChange={device.canManage}
            onOpen={(f) => open(f.path)}
            onRename={setRenaming}
            onDelete={setDeleting}
            onMonitor={(f) => void navigate(`/devices/${device.id}/monitor/new?${new URLSearchParams({ path: f.path })}`)}
            onDownload={(f) => download.mutate(f.path)}
            downloading={download.isPending ? download.variables : undefined}
          />
          {paging}
        </>
      ) : null}

      <FileNameModal
        opened={newFolder}
        title="New folder"
        submitLabel="Create"
        pending={createFolder.isPending}
        onClose={() => setNewFolder(false)}
        onSubmit={(name) => createFolder.mutateAsync({ path: folder!, name })}
      />
      <FileNameModal
        opened={renaming !== null}
        title={`Rename ${renaming?.name ?? ''}`}
        submitLabel="Rename"
        initialName={renaming?.name}
        pending={rename.isPending}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => rename.mutateAsync({ path: renaming!.path, name })}
      />
      <DeleteEntryModal
        entry={deleting}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onDelete={(recursive) => remove.mutateAsync({ path: deleting!.path, recursive })}
      />
    </Stack>
  );
}
