import {
  type CommandAnswer,
  DOWNLOAD_URL_PREFIX,
  type DriveDetail,
  ErrorCode,
  FILE_COMMAND,
  type FileChangeResult,
  type FileListing,
  fileListingSchema,
  type NewFolderForm,
  type RenameFileForm,
  UPLOAD_FIELDS,
} from '@fleetlink/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { openConsoleLink } from '../../../app/api/open-link';
import { useApi } from '../../../app/api/useApi';
import { useTrackedUpload } from '../../../app/api/useTrackedUpload';
import { deviceKeys } from '../device-api';
import type { FileLocation } from './file-location';

export const fileKeys = {
  device: (deviceId: string) => ['devices', 'files', deviceId] as const,
  listing: (deviceId: string, location: FileLocation) => ['devices', 'files', deviceId, location] as const,
};

const base = (deviceId: string) => `/api/device/${encodeURIComponent(deviceId)}`;

/** A page of a folder: the command `file` (SPEC §3), asked only of an online device. */
export function useFolderListing(deviceId: string, location: FileLocation, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: fileKeys.listing(deviceId, location),
    queryFn: async (): Promise<FileListing> => {
      const parameters = [
        ...(location.path ? [{ name: 'path', value: location.path }] : []),
        { name: 'hidden', value: String(location.hidden) },
        ...(location.offset ? [{ name: 'offset', value: String(location.offset) }] : []),
      ];
      const answer = await api.post<CommandAnswer>(`${base(deviceId)}/command`, { name: FILE_COMMAND, parameters });
      // The answer is a listing or a command's output (the contract's union): told apart here.
      return fileListingSchema.parse(answer);
    },
    enabled,
    placeholderData: keepPreviousData,
    // A listing is a request to the device: one failure is told, not retried behind the person's back.
    retry: false,
  });
}

/** After a change the folder is read again, from the device. */
function useFileChange<V>(deviceId: string, send: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => client.invalidateQueries({ queryKey: fileKeys.device(deviceId) }) });
}

export function useCreateFolder(deviceId: string) {
  const api = useApi();
  return useFileChange(deviceId, (form: NewFolderForm) => api.post<FileChangeResult>(`${base(deviceId)}/folder`, form));
}

export function useRenameFile(deviceId: string) {
  const api = useApi();
  return useFileChange(deviceId, (form: RenameFileForm) => api.post<FileChangeResult>(`${base(deviceId)}/rename`, form));
}

export function useDeleteFile(deviceId: string) {
  const api = useApi();
  return useFileChange(deviceId, ({ path, recursive }: { path: string; recursive: boolean }) =>
    api.delete<FileChangeResult>(
      `${base(deviceId)}/file?${new URLSearchParams({ path, ...(recursive ? { recursive: 'true' } : {}) })}`,
      // The delete dialog asks then whether to delete everything in it (DeleteEntryModal).
      (err) => err.code === ErrorCode.FolderNotEmpty,
    ),
  );
}

/** POST /api/device/{id}/disk?path=: the drive turns BUSY at once; the device answers later. */
export function useScanDisk(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (path: string) => api.post<DriveDetail>(`${base(deviceId)}/disk?${new URLSearchParams({ path })}`),
    onSettled: () => client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}

/**
 * Download (issue 27): the device sends the file to the console, which answers a one-time link;
 * the browser then navigates to it and the file arrives as an attachment (the page stays). A failure
 * is only logged (SPEC §8).
 */
export function useDownloadFile(deviceId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (path: string) => {
      const url = await api.request<unknown>(`/api/request-download/${encodeURIComponent(deviceId)}?${new URLSearchParams({ path })}`, { quiet: true });
      openConsoleLink(url, DOWNLOAD_URL_PREFIX);
    },
    onError: (err, path) => console.error(`The download of ${path} failed:`, err),
  });
}

/**
 * Upload (issue 27) into a folder, with the progress of the bytes going to the console and a
 * Cancel; the folder is read again after. A failure is the alert toast, and the busy state ends
 * whichever way it goes (SPEC §8).
 */
export function useUploadFile(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  const { state, track, cancel } = useTrackedUpload();
  const start = async (folder: string, file: File, overwrite: boolean) => {
    const form = new FormData();
    form.append(UPLOAD_FIELDS.path, folder);
    if (overwrite) form.append(UPLOAD_FIELDS.overwrite, 'true');
    form.append(UPLOAD_FIELDS.file, file);
    await track(file, async (o) => {
      await api.upload<FileChangeResult>(`/api/upload/${encodeURIComponent(deviceId)}`, form, o);
      await client.invalidateQueries({ queryKey: fileKeys.device(deviceId) });
    });
  };
  return { state, start, cancel };
}
