import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { passwordLogin } from '../../apps/server/src/idp/password-login.js';
import { admin } from './accounts';
import type { ConsoleSuite } from './console-suite';

/** Uploads a bundle archive (a file, or its bytes under a name) as the admin, through the API the Bundles page uses. */
export async function uploadBundle(suite: ConsoleSuite, file: string, body: Buffer = readFileSync(file)): Promise<void> {
  const { access_token } = await passwordLogin({ consoleUrl: suite.stack.url, email: admin.email, password: admin.password });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(body)]), path.basename(file));
  const res = await fetch(`${suite.stack.url}/api/bundle`, { method: 'POST', headers: { authorization: `Bearer ${access_token}` }, body: form });
  expect(res.status, await res.text()).toBe(201);
}
