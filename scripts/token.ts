/**
 * `npm run token -- <email> [password]`: prints an access token of a seeded account of the running
 * embedded console (CONSOLE_URL, default http://localhost:$PORT or 8080) and nothing else on stdout.
 */
import { SEEDED_ACCOUNTS } from '../apps/server/src/idp/accounts.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';

const [email, givenPassword] = process.argv.slice(2);
if (!email) {
  process.stderr.write('Usage: npm run token -- <email> [password]\n');
  process.exit(2);
}
const password = givenPassword ?? SEEDED_ACCOUNTS.find((a) => a.email === email)?.password;
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
