import path from 'node:path';
import { fileNameSchema, ReplyCode } from '@fleetlink/contract';
import { Refused } from '../refused.js';

/**
 * A path from the console, checked before the agent touches anything: absolute, and without `..`
 * segments, so the folder the agent works in is exactly the one named (a console that wanted
 * another would name it). Answers it normalized, without a trailing separator.
 */
export function devicePath(raw: string): string {
  if (raw.includes('\0')) throw new Refused('The path cannot contain a NUL character.');
  if (!path.isAbsolute(raw)) throw new Refused(`The path '${raw}' is not absolute.`);
  if (raw.split(/[\\/]/).includes('..')) throw new Refused(`The path '${raw}' contains '..': name the folder itself.`);
  return path.resolve(raw);
}

/** A new name: one segment (the contract's rules, the same the form shows). */
export function entryName(raw: string): string {
  const name = fileNameSchema.safeParse(raw);
  if (!name.success) throw new Refused(name.error.issues[0]!.message);
  return name.data;
}

/** True for a filesystem's root (`/`, `C:\`), which no change may touch. */
export const isRoot = (p: string) => path.parse(p).root === p;

/** A hidden entry: a dot name (the convention on every system the agent runs on). */
export const isHidden = (name: string) => name.startsWith('.');

/** A name taken in a folder: the console asks the person before it replaces anything. */
export const existsAlready = (name: string, folder: string) => new Refused(`'${name}' exists already in '${folder}'.`, ReplyCode.Exists);

type Doing = 'read' | 'create' | 'rename' | 'delete' | 'scan';

/** A filesystem error as the person who asked reads it. */
export function fsRefusal(err: unknown, p: string, doing: Doing): Error {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return new Refused(`'${p}' does not exist.`, ReplyCode.NotFound);
    case 'EACCES':
    case 'EPERM':
      return new Refused(`The agent is not allowed to ${doing} '${p}'.`);
    case 'ELOOP':
      return new Refused(`'${p}' is a symbolic link that leads back to itself.`);
    case 'ENOTDIR':
      return new Refused(`'${p}' is not a folder.`);
    case 'EEXIST':
      return new Refused(`'${p}' exists already.`, ReplyCode.Exists);
    case 'ENOTEMPTY':
      return new Refused(`The folder '${p}' is not empty.`, ReplyCode.FolderNotEmpty);
    case 'EBUSY':
      return new Refused(`'${p}' is in use.`);
    case 'EROFS':
      return new Refused(`'${p}' is on a read-only filesystem.`);
    case 'ENAMETOOLONG':
      return new Refused(`The path '${p}' is too long for this filesystem.`);
    default:
      return new Refused(`Could not ${doing} '${p}': ${(err as Error).message}`);
  }
}
