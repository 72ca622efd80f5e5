import { ErrorCode, type FileEntry } from '@fleetlink/contract';
import { useEffect, useState } from 'react';
import { ApiRequestError } from '../../../app/api/api-error';
import { ConfirmModal } from '../../../app/forms/ConfirmModal';

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
    <ConfirmModal
      opened
      question={notEmpty ? `The folder ${entry.name} is not empty. Delete it with everything in it?` : `Delete ${entry.isFolder ? 'folder' : 'file'} ${entry.name}?`}
      confirmLabel={notEmpty ? 'Delete everything' : 'Delete'}
      pending={pending}
      onClose={onClose}
      onConfirm={() => void remove(notEmpty)}
      questionTestId="delete-question"
    />
  );
}
