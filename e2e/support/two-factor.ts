import { generate } from 'otplib';
import { expect } from 'vitest';
import { choosePassword } from '../../apps/server/src/modules/accounts/accounts.test-support.js';
import { passwordLogin } from '../../apps/server/src/idp/password-login.js';
import { admin } from './accounts';
import type { ConsoleSuite } from './console-suite';

/** A person of the built-in sign-in, made through the API (the invitation's link in the answer: no mail here). */
export interface Person {
  id: string;
  email: string;
  password: string;
}

const PASSWORD = 'a long and private phrase';

/** Invited by the admin, their password chosen through the link. */
export async function personWithPassword(suite: ConsoleSuite, email: string, role: 'USER' | 'ADMIN' = 'USER'): Promise<Person> {
  const invited = await suite.api(admin, 'POST', '/api/accounts', { email, name: email, role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  expect((await choosePassword(invited.body.link, PASSWORD)).status).toBe(200);
  return { id: invited.body.account.id, email, password: PASSWORD };
}

/** Two-factor authentication turned on for the person through their profile's API: the secret their app would hold. */
export async function turnOnTwoFactor(suite: ConsoleSuite, person: Person): Promise<string> {
  const { access_token: token } = await passwordLogin({ consoleUrl: suite.stack.url, email: person.email, password: person.password });
  const call = (path: string, json?: unknown) =>
    fetch(`${suite.stack.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json ?? {}) });
  const setup = (await (await call('/api/account/two-factor/setup')).json()) as { secret: string };
  expect((await call('/api/account/two-factor', { code: await generate({ secret: setup.secret }) })).status).toBe(200);
  return setup.secret;
}
