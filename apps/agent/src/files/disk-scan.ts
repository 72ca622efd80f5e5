import { lstat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { DISK_SCAN_FOLDERS_MAX, DISK_SCAN_UNREADABLE_NAMED_MAX, type DiskUsage } from '@fleetlink/contract';
import { Refused } from '../refused.js';
import { devicePath, fsRefusal } from './device-path.js';
import { folderChildren, type Child } from './folder-children.js';

/** Bytes an entry takes on the disk (what "used" means), or its length where blocks are not known. */
const used = (s: Stats) => (s.blocks !== undefined && s.blocks !== null && process.platform !== 'win32' ? s.blocks * 512 : s.size);

interface Walk {
  device: number;
  answerBy: number;
  unreadable: number;
  /** The first unreadable folders, named on the Storage page. */
  unreadablePaths: string[];
  complete: boolean;
}

let scanning = false;

/**
 * `disk.scan`: the space used under each folder right under `root` (a drive's root or any folder),
 * like `du` one level deep. Stays on the drive (mount points below it are other drives), never follows links, counts what it may not
 * read, and answers by `answerBy` with what it found so far when the drive is too big to finish.
 * One scan at a time: a scan reads the whole drive.
 */
export async function scanDisk(root: string, answerBy: number): Promise<DiskUsage> {
  if (scanning) throw new Refused('A drive scan is running on this device already: wait for it to finish.');
  scanning = true;
  try {
    const top = devicePath(root);
    const rootStats = await lstat(top).catch((err) => {
      throw fsRefusal(err, top, 'scan');
    });
    if (!rootStats.isDirectory()) throw new Refused(`'${top}' is not a folder.`);
    const walk: Walk = { device: rootStats.dev, answerBy, unreadable: 0, unreadablePaths: [], complete: true };
    const folders: DiskUsage['folders'] = [];
    let files = 0;
    for (const { p, stats } of await children(top, walk)) {
      if (stats.isDirectory()) {
        if (stats.dev === walk.device) folders.push({ name: path.basename(p), path: p, size: used(stats) + (await folderSize(p, walk)) });
      } else files += used(stats);
    }
    folders.sort((a, b) => b.size - a.size);
    const shown = folders.slice(0, DISK_SCAN_FOLDERS_MAX);
    const others = folders.slice(DISK_SCAN_FOLDERS_MAX).reduce((sum, f) => sum + f.size, 0);
    return {
      path: top,
      size: files + folders.reduce((sum, f) => sum + f.size, 0),
      files,
      folders: shown,
      others,
      unreadable: walk.unreadable,
      unreadablePaths: walk.unreadablePaths,
      complete: walk.complete,
    };
  } finally {
    scanning = false;
  }
}

/** Everything under a folder, depth first with a list of its own (no recursion depth to run out of). */
async function folderSize(folder: string, walk: Walk): Promise<number> {
  let size = 0;
  const pending = [folder];
  while (pending.length) {
    if (Date.now() > walk.answerBy) {
      walk.complete = false;
      return size;
    }
    for (const { p, stats } of await children(pending.pop()!, walk)) {
      size += used(stats);
      if (stats.isDirectory() && stats.dev === walk.device) pending.push(p);
    }
  }
  return size;
}

/** The entries of one folder; an unreadable one is counted, and the first ones named. */
async function children(folder: string, walk: Walk): Promise<Child[]> {
  const found = await folderChildren(folder);
  if (!found && walk.unreadable++ < DISK_SCAN_UNREADABLE_NAMED_MAX) walk.unreadablePaths.push(folder);
  return found ?? [];
}
