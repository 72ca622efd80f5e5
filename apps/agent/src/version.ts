import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** The agent's own version (its bundle); the launcher is the same package until self-update lands. */
export const AGENT_VERSION = pkg.version;
