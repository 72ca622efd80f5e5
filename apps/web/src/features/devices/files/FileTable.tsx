import type { FileEntry } from '@fleetlink/contract';
import { ActionIcon, Anchor, Badge, Group, Loader, Menu, Table, Text } from '@mantine/core';
import { IconDots, IconDownload, IconEye, IconFile, IconFolder, IconPencil, IconTrash } from '@tabler/icons-react';
import { formatDateTime } from '../../../app/format/date-format';
import { formatBytes } from '../summary/units';
import { ActionsHeader } from '../../../app/tables/ActionsHeader';

interface FileTableProps {
  files: FileEntry[];
  /** Whether the row menu has Rename, Delete and Monitor: CREATOR or ADMIN of the organization. */
  canChange: boolean;
  onOpen: (folder: FileEntry) => void;
  onRename: (entry: FileEntry) => void;
  onDelete: (entry: FileEntry) => void;
  /** Opens the monitor form for the entry's path. */
  onMonitor: (entry: FileEntry) => void;
  /** Download is there for every member, on files. */
  onDownload: (file: FileEntry) => void;
  /** The path of the file the device is sending now. */
  downloading?: string;
}

/**
 * The entries of a folder (SPEC §2 Storage page): name (a folder opens on click), size in base 1024,
 * last change, a hidden marker, and the row menu. Names are the device's: shown as text, never markup.
 */
export function FileTable({ files, canChange, onOpen, onRename, onDelete, onMonitor, onDownload, downloading }: FileTableProps) {
  return (
    // Narrow (a phone) without Modified: name, size and the row's menu fit, nothing scrolls sideways (issue 59).
    <Table.ScrollContainer minWidth={300}>
      <Table striped highlightOnHover verticalSpacing={6} data-testid="file-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th visibleFrom="sm">Modified</Table.Th>
            <ActionsHeader w={48} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text size="sm" c="dimmed">
                  This folder is empty.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {files.map((f) => (
            <Table.Tr key={f.path} data-testid="file-row" data-name={f.name}>
              <Table.Td>
                <Group gap={8} wrap="nowrap">
                  {f.isFolder ? <IconFolder size={18} color="var(--mantine-color-yellow-7)" aria-hidden /> : <IconFile size={18} color="var(--mantine-color-gray-6)" aria-hidden />}
                  {f.isFolder ? (
                    <Anchor component="button" type="button" size="sm" onClick={() => onOpen(f)} style={{ overflowWrap: 'anywhere', textAlign: 'left' }}>
                      {f.name}
                    </Anchor>
                  ) : (
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {f.name}
                    </Text>
                  )}
                  {f.hidden ? (
                    <Badge size="xs" variant="light" color="gray" tt="none">
                      hidden
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{f.isFolder ? '' : formatBytes(f.size)}</Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{f.modified ? formatDateTime(new Date(f.modified)) : '-'}</Text>
              </Table.Td>
              <Table.Td>
                {downloading === f.path ? (
                  <Loader size={16} aria-label={`Downloading ${f.name}`} />
                ) : canChange || !f.isFolder ? (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${f.name}`}>
                        <IconDots size={16} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {f.isFolder ? null : (
                        <Menu.Item leftSection={<IconDownload size={14} />} onClick={() => onDownload(f)}>
                          Download
                        </Menu.Item>
                      )}
                      {canChange ? (
                        <>
                          <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => onRename(f)}>
                            Rename
                          </Menu.Item>
                          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onDelete(f)}>
                            Delete
                          </Menu.Item>
                          <Menu.Item leftSection={<IconEye size={14} />} onClick={() => onMonitor(f)}>
                            Monitor
                          </Menu.Item>
                        </>
                      ) : null}
                    </Menu.Dropdown>
                  </Menu>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
