import { uploadTooLargeMessage } from '@fleetlink/contract';
import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { ConfirmModal } from '../../../app/forms/ConfirmModal';
import { UploadProgressPanel } from '../../../app/forms/UploadProgressPanel';
import { showAlert } from '../../../app/toasts/show-alert';
import type { useUploadFile } from './files-api';

type Upload = ReturnType<typeof useUploadFile>;

interface UploadButtonProps {
  upload: Upload;
  /** The folder shown, which the file goes into; none while no listing is there. */
  folder: string | undefined;
  /** Names in the folder as listed: one of them is replaced only after the person says so. */
  taken: (name: string) => boolean;
  maxBytes: number;
}

/** Upload into the current folder: a file past the limit is refused before a byte is sent. */
export function UploadButton({ upload, folder, taken, maxBytes }: UploadButtonProps) {
  const [replacing, setReplacing] = useState<File | null>(null);
  // The input forgets its file, so the same file can be chosen again (after a cancel, say).
  const reset = useRef<() => void>(null);
  const choose = (file: File | null) => {
    reset.current?.();
    if (!file || !folder) return;
    if (file.size > maxBytes) return showAlert(uploadTooLargeMessage(maxBytes));
    if (taken(file.name)) return setReplacing(file);
    void upload.start(folder, file, false);
  };
  return (
    <>
      <FileButton onChange={choose} resetRef={reset}>
        {(props) => (
          <Button {...props} variant="default" leftSection={<IconUpload size={16} />} disabled={!folder || upload.state !== null}>
            Upload
          </Button>
        )}
      </FileButton>
      <ConfirmModal
        opened={replacing !== null}
        question={`${replacing?.name ?? ''} exists already in this folder. Replace it?`}
        confirmLabel="Replace"
        onClose={() => setReplacing(null)}
        onConfirm={() => {
          if (replacing && folder) void upload.start(folder, replacing, true);
          setReplacing(null);
        }}
        questionTestId="replace-question"
      />
    </>
  );
}

/**
 * While an upload goes: how much has reached the console, then that the device is fetching it;
 * Cancel stops it either way, and the device keeps nothing of it.
 */
export function UploadProgress({ upload }: { upload: Upload }) {
  if (!upload.state) return null;
  return <UploadProgressPanel state={upload.state} afterSent={`The device is receiving ${upload.state.name}…`} onCancel={upload.cancel} testId="upload-progress" />;
}
