import { ErrorCode, type FileEntry } from '@fleetlink/contract';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiRequestError } from '../../../app/api/api-error';

interface DeleteEntryModalProps {
  entry: FileEntry | null;
  pending: boolean;
  onClose: () => void;
  onDelete: (recursive: boolean) => Promise<unknown>;
}

/**
 * Deleting asks first, naming the entry. A folder with contents goes only after a second, explicit
 * question: the device refuses it the first time (FOLDER_NOT_EMPTY), and only then is "everything
 * in it" asked for.
 */
export function DeleteEntryModal({ entry, pending, onClose, onDelete }: DeleteEntryModalProps) {
  const [notEmpty, setNotEmpty] = useState(false);
  useEffect(() => setNotEmpty(false), [entry?.path]);
  if (!entry) return null;

  const remove = async (recursive: boolean) => {
    try {
      await onDelete(recursive);
      onClose();
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === ErrorCode.FolderNotEmpty) setNotEmpty(true);
      else onClose();
    }
  };

  return (
    <Modal opened onClose={onClose} title="Please confirm" centered>
      {notEmpty ? (
        <Text mb="lg" style={{ overflowWrap: 'anywhere' }} data-testid="delete-question">
          The folder {entry.name} is not empty. Delete it with everything in it?
        </Text>
      ) : (
        <Text mb="lg" style={{ overflowWrap: 'anywhere' }} data-testid="delete-question">
          Delete {entry.isFolder ? 'folder' : 'file'} {entry.name}?
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={pending} onClick={() => void remove(notEmpty)}>
          {notEmpty ? 'Delete everything' : 'Delete'}
        </Button>
      </Group>
    </Modal>
  );
}
