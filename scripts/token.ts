/**
 * `npm run -s token -- <email> [password]`: prints an access token of a seeded account of the running
 * embedded console and nothing else on stdout (with -s: without it, npm prints its `> token` lines there too). The
 * console is CONSOLE_URL, else http://localhost:$PORT, else the one running on DATA_DIR (it says
 * where it listens in DATA_DIR), else http://localhost:8080.
 * A seeded account's password is, unless given: its IDP_*_PASSWORD variable, the generated one kept
 * in DATA_DIR by a console listening beyond loopback, or the well-known one.
 */
import path from 'node:path';
import { SEEDED_ACCOUNTS } from '../apps/server/src/idp/accounts.js';
import { readKeptPasswords } from '../apps/server/src/idp/kept-passwords.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { runningConsoleUrl } from '../apps/server/src/modules/system/console-address.js';

const [email, givenPassword] = process.argv.slice(2);
if (!email) {
  process.stderr.write('Usage: npm run -s token -- <email> [password]\n');
  process.exit(2);
}
const dataDir = process.env.DATA_DIR || './data';
const seeded = SEEDED_ACCOUNTS.find((a) => a.email === email);
const password =
  givenPassword ??
  (seeded && (process.env[seeded.passwordVariable] || readKeptPasswords(dataDir).get(email) || seeded.password));
if (!password) {
  process.stderr.write(`${email} is not a seeded account; pass its password: npm run -s token -- ${email} <password>\n`);
  process.exit(2);
}
const consoleUrl =
  process.env.CONSOLE_URL || (process.env.PORT ? `http://localhost:${process.env.PORT}` : (runningConsoleUrl(dataDir) ?? 'http://localhost:8080'));
const chosen = process.env.CONSOLE_URL ? 'CONSOLE_URL' : process.env.PORT ? 'PORT' : undefined;
try {
  const tokens = await passwordLogin({ consoleUrl, email, password });
  process.stdout.write(tokens.access_token + '\n');
} catch (err) {
  const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
  const notRunning = chosen
    ? `No console is running at ${consoleUrl} (from ${chosen}).\n`
    : `No console is running at ${consoleUrl}, and none has said it runs on DATA_DIR ${path.resolve(dataDir)}: start it with npm start, ` +
      `or set PORT (or CONSOLE_URL) to where it runs, or DATA_DIR to the one it was started with.\n`;
  process.stderr.write(cause === 'ECONNREFUSED' ? notRunning : `${(err as Error).message}\n`);
  process.exit(1);
}
