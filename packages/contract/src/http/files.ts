import { z } from 'zod';
import { DEVICE_CALL_ERRORS } from './route-errors.js';
import { messages, withoutControlCharacters } from '../forms/messages.js';

/**
 * The Storage page's calls (SPEC §2, §3, §7). The listing is the command `file` with the parameter
 * `path` through POST /api/device/{id}/command; the changes (new folder, rename, delete) and the
 * drive scan have routes of their own, because they need other roles than the Command page.
 */
export const FILE_COMMAND = 'file';

/**
 * Entries of one folder in one answer: an answer from a device stays under the console's limit for
 * one message (512 KiB) even with the longest names, and a folder of 100,000 entries is read page
 * by page. The agent may send fewer when the names are long; `offset` + `files.length` is where the
 * next page starts.
 */
export const FILE_LISTING_PAGE_MAX = 500;
/** The JSON bytes a page of entries may take on the agent's side (the rest of the answer is small). */
export const FILE_LISTING_JSON_BUDGET = 384 * 1024;

/** Paths are absolute on the device (`/home/x`, `C:\Users`); SPEC §9 caps what the console takes. */
export const FILE_PATH_MAX = 4096;
/** A file or folder name (one path segment): 255 bytes on every common filesystem. */
export const FILE_NAME_MAX = 255;

/** The bounds of every device path the console takes: the listing's and the changes'. */
const pathBounds = (text: z.ZodString) =>
  text.max(FILE_PATH_MAX, messages.maxLength('Path', FILE_PATH_MAX)).refine(withoutControlCharacters, messages.controlCharacters('Path'));

export const fileEntrySchema = z.object({
  name: z.string(),
  path: z.string(),
  isFolder: z.boolean(),
  hidden: z.boolean(),
  /** The version a file carries in itself; null where the agent cannot read one (most files). */
  version: z.string().nullable(),
  /** ISO time of the last change; null when it could not be read (a broken link). */
  modified: z.string().nullable(),
  /** Bytes; null for folders. */
  size: z.number().nonnegative().nullable(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

export const fileDriveSchema = z.object({
  name: z.string(),
  root: z.string(),
  freeSpace: z.number().nonnegative(),
  totalSpace: z.number().nonnegative(),
});

/** The parameters of the `file` command, as the agent reads them (all text, like every command's). */
export const fileListingParametersSchema = z.object({
  /** The folder to list; absent or empty for the first drive's root. */
  path: pathBounds(z.string()).optional(),
  /** Where the page starts (default 0). */
  offset: z.string().regex(/^\d{1,9}$/, 'Offset must be a whole number.').optional(),
  /** 'false' leaves hidden entries out (before paging); anything else lists them, marked. */
  hidden: z.enum(['true', 'false']).optional(),
});
export type FileListingParameters = z.infer<typeof fileListingParametersSchema>;

/** SPEC §3 File listing response, plus where the page stands in the folder. */
export const fileListingSchema = z.object({
  drives: z.array(fileDriveSchema),
  /** From the drive's root down to the listed folder itself, path → name, in that order. */
  ancestors: z.record(z.string(), z.string()),
  /** Folders first, then files, each by name. */
  files: z.array(fileEntrySchema),
  /** Entries in the folder (hidden ones left out when asked). */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  request: z.object({ name: z.literal(FILE_COMMAND), parameters: z.object({ path: z.string() }).catchall(z.string()) }),
});
export type FileListing = z.infer<typeof fileListingSchema>;

/** A name the console sends to the agent: one segment, never a way out of the folder it is for. */
export const fileNameSchema = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(FILE_NAME_MAX, messages.maxLength('Name', FILE_NAME_MAX))
  .refine((name) => name !== '.' && name !== '..', 'Name cannot be . or ..')
  .refine((name) => !/[/\\]/.test(name), 'Name cannot contain / or \\.')
  .refine(withoutControlCharacters, 'Name cannot contain control characters.');

export const filePathSchema = pathBounds(z.string({ error: 'Path is required.' }).min(1, 'Path is required.'));

/** The name field of the New folder and Rename dialogs. */
export const fileNameFormSchema = z.object({ name: fileNameSchema });

/** POST /api/device/{id}/folder: a new folder `name` inside the folder `path`. */
export const newFolderFormSchema = z.object({ path: filePathSchema, name: fileNameSchema });
export type NewFolderForm = z.infer<typeof newFolderFormSchema>;

/** POST /api/device/{id}/rename: the file or folder at `path` gets the name `name`, in the same folder. */
export const renameFileFormSchema = z.object({ path: filePathSchema, name: fileNameSchema });
export type RenameFileForm = z.infer<typeof renameFileFormSchema>;

/**
 * DELETE /api/device/{id}/file?path=…&recursive=true: a folder with contents goes only with
 * `recursive=true`; without it the answer is 409 FOLDER_NOT_EMPTY, so the page asks a second time.
 */
export const deleteFileQuerySchema = z.object({
  path: filePathSchema,
  recursive: z
    .enum(['true', 'false'], { error: 'Recursive must be true or false.' })
    .optional()
    .transform((v) => v === 'true'),
});

/** What a change answers: the entry as it is now (absent after a delete). */
export const fileChangeResultSchema = z.object({ entry: fileEntrySchema.optional() });
export type FileChangeResult = z.infer<typeof fileChangeResultSchema>;

/**
 * POST /api/device/{id}/disk?path=… (SPEC §7): measures the folders under `path`, a drive's root or
 * any folder on it; the drive it is on shows the scan as its detail (BUSY while it runs).
 */
export const diskScanQuerySchema = z.object({ path: filePathSchema });

/** How long a drive scan may run on the device before the console gives up on it. */
export const DISK_SCAN_TIMEOUT_MS = 10 * 60_000;
/** Top folders a scan reports (the largest ones; the rest are summed into `others`). */
export const DISK_SCAN_FOLDERS_MAX = 200;
/** The unreadable folders a scan names (issue 59); beyond them it only counts. */
export const DISK_SCAN_UNREADABLE_NAMED_MAX = 20;

export const driveScanStatusSchema = z.enum(['BUSY', 'DONE', 'FAILED']);
export type DriveScanStatus = z.infer<typeof driveScanStatusSchema>;

/** What a scan found: bytes used under each folder right under the scanned path, largest first. */
export const diskUsageSchema = z.object({
  path: z.string(),
  /** Bytes of everything under the root that was read. */
  size: z.number().nonnegative(),
  /** Bytes of the files right in the root. */
  files: z.number().nonnegative(),
  folders: z.array(z.object({ name: z.string(), path: z.string(), size: z.number().nonnegative() })).max(DISK_SCAN_FOLDERS_MAX),
  /** Bytes of the top folders beyond the largest DISK_SCAN_FOLDERS_MAX. */
  others: z.number().nonnegative(),
  /** Folders that could not be read (no permission), counted. */
  unreadable: z.number().int().nonnegative(),
  /** The first of them, by path (an older agent names none). */
  unreadablePaths: z.array(z.string().max(4096)).max(DISK_SCAN_UNREADABLE_NAMED_MAX).optional(),
  /** False when the scan stopped at its deadline: the sizes are then lower bounds. */
  complete: z.boolean(),
});
export type DiskUsage = z.infer<typeof diskUsageSchema>;

/** SPEC §3 drive detail: the last scan on the drive, `root` being what it found under the path scanned. */
export const driveDetailSchema = z.object({
  status: driveScanStatusSchema,
  root: diskUsageSchema.nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why it failed, as the person who started it reads it. */
  error: z.string().nullable(),
});
export type DriveDetail = z.infer<typeof driveDetailSchema>;

/**
 * The root of the drive a device path is on: the longest root it starts with (a mount inside another
 * drive is a drive of its own). Paths are the device's, `/` or `\\` separated.
 */
export function driveOf(drives: { root: string }[], path: string): string | undefined {
  const within = (root: string) => path === root || path.startsWith(/[\\/]$/.test(root) ? root : `${root}${root.includes('\\') ? '\\' : '/'}`);
  return drives
    .map((d) => d.root)
    .filter(within)
    .sort((a, b) => b.length - a.length)[0];
}

/** The Files tab's changes and scans; listing a folder is the command `file` (commandRoutes). */
export const fileRoutes = {
  createFolder: { method: 'POST', path: '/api/device/:id/folder', role: 'USER', errors: DEVICE_CALL_ERRORS },
  rename: { method: 'POST', path: '/api/device/:id/rename', role: 'USER', errors: DEVICE_CALL_ERRORS },
  remove: { method: 'DELETE', path: '/api/device/:id/file', role: 'USER', errors: DEVICE_CALL_ERRORS },
  scanDrive: { method: 'POST', path: '/api/device/:id/disk', role: 'USER', errors: DEVICE_CALL_ERRORS },
} as const;
