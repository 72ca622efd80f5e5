import { describe, expect, it } from 'vitest';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { logOut, signIn } from './support/login';

const PASSWORD = 'e2e-Typed-Password-58';
const TEST_TIMEOUT_MS = 90_000;

/** Every request and answer logged (LOG_LEVEL info), and a password of the test's own. */
const suite = useConsoleSuite({ LOG_LEVEL: 'info', IDP_USER_PASSWORD: PASSWORD });

/**
 * Issue 58: a full session — sign in through the SPA, pages and API calls, a token in a URL, sign
 * out — leaves no token, code, state, ID token or password in the console's log, the provider's
 * requests included. The URLs are logged, with those values [redacted].
 */
describe('the log of a session holds no secret', () => {
  it(
    'signs in and out through the SPA and the log has no eyJ, code, state or password in it',
    async () => {
      const account = { ...user, password: PASSWORD };
      const { page } = await suite.open();
      const urls: string[] = [];
      page.on('request', (r) => urls.push(r.url()));
      await signIn(page, suite.stack.url, account, '/devices/search');
      await page.getByRole('heading', { name: 'Find devices' }).first().waitFor();

      // A script that puts its token in the URL.
      const { access_token } = await passwordLogin({ consoleUrl: suite.stack.url, email: account.email, password: PASSWORD });
      await fetch(`${suite.stack.url}/api/devices?access_token=${access_token}`);
      await logOut(page);

      const callback = new URL(urls.find((u) => u.includes('/auth/callback?'))!);
      const endSession = new URL(urls.find((u) => u.includes('/idp/session/end?'))!);
      const secrets = {
        'the authorization code': callback.searchParams.get('code')!,
        'the state': callback.searchParams.get('state')!,
        'the ID token hint': endSession.searchParams.get('id_token_hint')!,
        'the access token': access_token,
        'the password': PASSWORD,
      };
      for (const [what, value] of Object.entries(secrets)) expect(value, what).toBeTruthy();
      // Give the last log lines a moment to be written.
      await new Promise((r) => setTimeout(r, 300));
      const log = suite.stack.output();
      // The URLs were logged (the test can fail), their secrets were not.
      expect(log).toContain('/auth/callback?code=[redacted]');
      expect(log).toContain('id_token_hint=[redacted]');
      expect(log).toContain('access_token=[redacted]');
      expect(log).not.toContain('eyJ');
      for (const [what, value] of Object.entries(secrets)) expect(log.includes(value), `${what} is in the log`).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
