/**
 * `npm run token -- <email> [password]`: prints an access token of a seeded account of the running
 * embedded console (CONSOLE_URL, default http://localhost:$PORT or 8080) and nothing else on stdout.
 * A seeded account's password is, unless given: its IDP_*_PASSWORD variable, the generated one kept
 * in DATA_DIR by a console listening beyond loopback, or the well-known one.
 */
import { SEEDED_ACCOUNTS } from '../apps/server/src/idp/accounts.js';
import { readKeptPasswords } from '../apps/server/src/idp/kept-passwords.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';

const [email, givenPassword] = process.argv.slice(2);
if (!email) {
  process.stderr.write('Usage: npm run token -- <email> [password]\n');
  process.exit(2);
}
const seeded = SEEDED_ACCOUNTS.find((a) => a.email === email);
const password =
  givenPassword ??
  (seeded && (process.env[seeded.passwordVariable] || readKeptPasswords(process.env.DATA_DIR ?? './data').get(email) || seeded.password));
if (!password) {
  process.stderr.write(`${email} is not a seeded account; pass its password: npm run token -- ${email} <password>\n`);
  process.exit(2);
}
const consoleUrl = process.env.CONSOLE_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;
try {
  const tokens = await passwordLogin({ consoleUrl, email, password });
  process.stdout.write(tokens.access_token + '\n');
} catch (err) {
  const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
  process.stderr.write(cause === 'ECONNREFUSED' ? `No console is running at ${consoleUrl}; start it with npm start.\n` : `${(err as Error).message}\n`);
  process.exit(1);
}
