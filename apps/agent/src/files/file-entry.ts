import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '@fleetlink/contract';
import { isHidden } from './device-path.js';

/**
 * One entry as the Storage page shows it. A link is shown as what it points to (a link to a folder
 * opens like a folder); a broken or looping link is a file with nothing known about it.
 */
export async function fileEntry(p: string, name = path.basename(p) || p): Promise<FileEntry> {
  const own = await lstat(p);
  const target = own.isSymbolicLink() ? await stat(p).catch(() => undefined) : own;
  const isFolder = target?.isDirectory() ?? false;
  return {
    name,
    path: p,
    isFolder,
    hidden: isHidden(name),
    version: null,
    modified: target ? target.mtime.toISOString() : null,
    size: isFolder || !target ? null : target.size,
  };
}
