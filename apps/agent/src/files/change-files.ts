import { lstat, mkdir, rename, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ReplyCode, type FileChangeResult, type FileDeleteRequest, type FileNameRequest } from '@fleetlink/contract';
import { Refused } from '../refused.js';
import { devicePath, entryName, existsAlready, fsRefusal, isRoot } from './device-path.js';
import { fileEntry } from './file-entry.js';

/** `file.mkdir`: a new, empty folder `name` inside `path`; never replaces anything. */
export async function createFolder(req: FileNameRequest): Promise<FileChangeResult> {
  const parent = devicePath(req.path);
  const target = path.join(parent, entryName(req.name));
  try {
    await mkdir(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw existsAlready(req.name, parent);
    throw fsRefusal(err, (err as NodeJS.ErrnoException).code === 'ENOENT' ? parent : target, 'create');
  }
  return { entry: await fileEntry(target) };
}

/** `file.rename`: the entry at `path` gets the name `name` in the same folder; never over another one. */
export async function renameEntry(req: FileNameRequest): Promise<FileChangeResult> {
  const from = devicePath(req.path);
  if (isRoot(from)) throw new Refused("A drive's root cannot be renamed.");
  const target = path.join(path.dirname(from), entryName(req.name));
  await lstat(from).catch((err) => {
    throw fsRefusal(err, from, 'rename');
  });
  // rename(2) silently replaces a file of that name: look first (a change in between is the
  // person's own race, on their own device).
  if (target !== from && (await lstat(target).then(() => true, () => false))) throw existsAlready(req.name, path.dirname(from));
  try {
    await rename(from, target);
  } catch (err) {
    throw fsRefusal(err, from, 'rename');
  }
  return { entry: await fileEntry(target) };
}

/**
 * `file.delete`: a file, a link (never what it points to), an empty folder, or with `recursive` a
 * folder and everything in it.
 */
export async function deleteEntry(req: FileDeleteRequest): Promise<FileChangeResult> {
  const target = devicePath(req.path);
  if (isRoot(target)) throw new Refused("A drive's root cannot be deleted.");
  try {
    const own = await lstat(target);
    if (!own.isDirectory()) await unlink(target);
    else if (req.recursive) await rm(target, { recursive: true });
    else await rmdir(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Linux says ENOTEMPTY, some systems EEXIST, for the same thing.
    if (code === 'ENOTEMPTY' || (code === 'EEXIST' && !req.recursive)) {
      throw new Refused(`The folder '${path.basename(target)}' is not empty.`, ReplyCode.FolderNotEmpty);
    }
    throw fsRefusal(err, target, 'delete');
  }
  return {};
}
