import { stat } from 'node:fs/promises';
import type { MonitorDefinition, MonitorReading } from '@fleetlink/contract';
import { devicePath, fsRefusal } from '../files/device-path.js';
import { folderChildren } from '../files/folder-children.js';
import { Refused } from '../refused.js';
import { NoVersion, readVersion } from './read-version.js';

/**
 * How long one folder is walked for its size or newest change. A monitor is read at every
 * heartbeat: a tree too big for this is reported as far as it was counted, with a note.
 */
export const FOLDER_WALK_BUDGET_MS = 3000;

/**
 * One monitor read now (SPEC §3): UPDATE the last modification time (ISO; of a folder, the newest
 * in it), SIZE the bytes (of a folder, of every file in it), VERSION what the file declares. A path
 * that cannot be read gives no value and a note that says why.
 */
export async function readMonitor(def: MonitorDefinition, budgetMs = FOLDER_WALK_BUDGET_MS): Promise<MonitorReading> {
  const reading = (value: string | null, note: string | null = null): MonitorReading => ({ ...def, value, note: note && bounded(note) });
  let p = def.path;
  try {
    p = devicePath(def.path);
    if (def.type === 'VERSION') return reading(await readVersion(p));
    const stats = await stat(p);
    if (!stats.isDirectory()) return reading(def.type === 'SIZE' ? String(stats.size) : stats.mtime.toISOString());
    const tree = await walkFolder(p, stats.dev, stats.mtimeMs, Date.now() + budgetMs);
    const seconds = Math.round(budgetMs / 1000);
    if (def.type === 'SIZE') {
      return reading(String(tree.bytes), tree.complete ? null : `The folder is too big to count in ${seconds} s: it holds at least this much.`);
    }
    return reading(new Date(tree.newest).toISOString(), tree.complete ? null : `The folder is too big to read in ${seconds} s: a later change may be missed.`);
  } catch (err) {
    if (err instanceof Refused || err instanceof NoVersion) return reading(null, err.message);
    return reading(null, fsRefusal(err, p, 'read').message);
  }
}

/** A note stays well inside what a reading may carry (a filesystem's message can be long). */
const NOTE_MAX = 512;
const bounded = (note: string) => (note.length > NOTE_MAX ? `${note.slice(0, NOTE_MAX - 1)}…` : note);

/** Bytes of every file under a folder and its newest change, on its own filesystem, links not followed. */
async function walkFolder(root: string, device: number, rootModified: number, answerBy: number) {
  let bytes = 0;
  let newest = rootModified;
  const pending = [root];
  while (pending.length) {
    if (Date.now() > answerBy) return { bytes, newest, complete: false };
    for (const { p, stats } of (await folderChildren(pending.pop()!)) ?? []) {
      newest = Math.max(newest, stats.mtimeMs);
      if (stats.isDirectory()) {
        if (stats.dev === device) pending.push(p);
      } else if (stats.isFile()) bytes += stats.size;
    }
  }
  return { bytes, newest, complete: true };
}
