import path from 'node:path';
import { KEPT_PASSWORDS_FILE } from '../../idp/kept-passwords.js';
import { keepPrivate } from '../../lib/private-files.js';
import { SECRET_KEY_FILE } from './secret-key.js';

/** What the console keeps in DATA_DIR: the database, blobs, bundles, agent downloads and keys. */
const OURS = ['pg', 'blobs', 'bundles', 'agent-downloads', SECRET_KEY_FILE, KEPT_PASSWORDS_FILE];

/**
 * Makes DATA_DIR the console's user's alone (issue 58): the folder itself 0700, and what the console
 * keeps in it 0600/0700; answers how many entries were wider. Only the console's own entries are
 * walked, since DATA_DIR may be a folder that holds other things too. PGlite writes its files 0666
 * whatever the umask, so this runs again once the database is open.
 */
export function keepDataDirPrivate(dataDir: string): number {
  let loosened = keepPrivate(dataDir, { recursive: false });
  for (const name of OURS) loosened += keepPrivate(path.join(dataDir, name));
  return loosened;
}
