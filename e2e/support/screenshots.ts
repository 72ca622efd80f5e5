import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** Where the browser tests leave their screenshots for a person to look at (.tmp is not committed). */
const SCREENSHOT_DIR = path.join(path.resolve(import.meta.dirname, '..', '..'), '.tmp', 'screenshots');

/** The path for a screenshot named `name`, its folder made. */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}
