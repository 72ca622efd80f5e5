import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AuditTrail } from '../modules/audit/audit-trail.js';
import type { AccountStore } from './accounts.js';
import { PASSWORD_PAGE_PATH, type AccountsService } from '../modules/accounts/accounts.service.js';
import type { TwoFactorSetup } from '@fleetlink/contract';
import type { TwoFactorService } from '../modules/accounts/two-factor.service.js';
import {
  errorPage,
  FORGOT_PAGE_PATH,
  forgotPage,
  loginPage,
  LOGOUT_SCRIPT,
  LOGOUT_SCRIPT_PATH,
  passwordPage,
  passwordSetPage,
  recoveryCodesPage,
  secondFactorPage,
  twoFactorSetupPage,
} from './pages.js';
import { IDP_MOUNT } from './provider.js';
import { PasswordSignIn, type PendingSignIn } from './sign-in.js';
import type { SignInLimits } from './sign-in-limits.js';

interface IdpPluginOptions {
  provider: Provider;
  accounts: AccountStore;
  limits: SignInLimits;
  audit: AuditTrail;
  /** The invitation and reset links' page: who a link is for, and the password chosen through it. */
  passwordLinks: Pick<AccountsService, 'openLink' | 'choosePassword' | 'requestReset' | 'mailsResets'>;
  /** The second step of a sign-in, and setting the app up there where the realm requires it. */
  twoFactor: Pick<TwoFactorService, 'secondStep' | 'check' | 'enable' | 'setup' | 'pendingSetup'>;
  /** PUBLIC_URL's host (and port): the provider's URLs are on it. */
  publicHost: string;
  /** PUBLIC_URL: where a person who chose a password goes to sign in. */
  consoleUrl: string;
}

/**
 * Mounts the built-in provider under /idp: its own sign-in pages, then everything else handed to
 * oidc-provider's Koa app with the mount prefix stripped (as its docs describe for mounting).
 */
export async function idpPlugin(app: FastifyInstance, opts: IdpPluginOptions) {
  const { provider } = opts;
  const signIn = new PasswordSignIn(opts.accounts, opts.limits, opts.audit, opts.twoFactor);
  /** Where each form of one sign-in posts: the password, the code, setting the app up, going on after the recovery codes. */
  const steps = (uid: string) => {
    const at = `${IDP_MOUNT}/interaction/${uid}`;
    return { login: `${at}/login`, code: `${at}/second-factor`, setup: `${at}/two-factor-setup`, done: `${at}/continue` };
  };

  /** The setting-up page of a pending sign-in: its new secret, or the one shown before (`pendingSetup`). */
  function setupPage(reply: FastifyReply, status: number, uid: string, setup: TwoFactorSetup | undefined, error?: string) {
    if (!setup) return sendPage(reply, 400, loginExpired());
    return sendPage(reply, status, twoFactorSetupPage({ action: steps(uid).setup, qrSvg: setup.qrSvg, secret: setup.secret, error }));
  }

  await app.register(async (interactions) => {
    await interactions.register(formbody);

    interactions.get(LOGOUT_SCRIPT_PATH, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT),
    );

    // An invitation's or reset's link opens here (issue 72); its token is in the query, which the log redacts.
    interactions.get<{ Querystring: { token?: string } }>(PASSWORD_PAGE_PATH, async (req, reply) => {
      const token = String(req.query.token ?? '');
      const opened = await opts.passwordLinks.openLink(token);
      if ('error' in opened) return sendPage(reply, 410, errorPage(opened.error));
      return sendPage(reply, 200, passwordPage({ action: PASSWORD_PAGE_PATH, token, email: opened.account.email }));
    });

    interactions.post<{ Body: { token?: string; password?: string; repeat?: string } }>(PASSWORD_PAGE_PATH, async (req, reply) => {
      const token = String(req.body?.token ?? '');
      const result = await opts.passwordLinks.choosePassword(token, String(req.body?.password ?? ''), String(req.body?.repeat ?? ''), req.ip);
      if ('account' in result) return sendPage(reply, 200, passwordSetPage(result.account.email, opts.consoleUrl));
      if ('gone' in result) return sendPage(reply, 410, errorPage(result.error));
      return sendPage(reply, 400, passwordPage({ action: PASSWORD_PAGE_PATH, token, email: result.email, error: result.error }));
    });

    interactions.get(FORGOT_PAGE_PATH, async (_req, reply) => sendPage(reply, 200, forgotPage({ canMail: opts.passwordLinks.mailsResets })));

    interactions.post<{ Body: { email?: string } }>(FORGOT_PAGE_PATH, async (req, reply) => {
      const canMail = opts.passwordLinks.mailsResets;
      const email = String(req.body?.email ?? '').trim();
      if (canMail && !email) return sendPage(reply, 400, forgotPage({ canMail, error: 'Email is required.' }));
      if (canMail) opts.passwordLinks.requestReset(email, req.ip);
      return sendPage(reply, 200, forgotPage({ canMail, sentTo: email }));
    });

    interactions.get<{ Params: { uid: string } }>(`${IDP_MOUNT}/interaction/:uid`, async (req, reply) => {
      const details = await provider.interactionDetails(req.raw, reply.raw).catch(() => undefined);
      if (!details) return sendPage(reply, 400, loginExpired());
      if (details.prompt.name === 'login') {
        // A reload between the password and the second step shows that step again.
        const pending = pendingOf(details);
        if (pending?.stage === 'code') return sendPage(reply, 200, secondFactorPage({ action: steps(details.uid).code }));
        if (pending?.stage === 'setup') return setupPage(reply, 200, details.uid, await opts.twoFactor.pendingSetup(pending.accountId));
        if (pending?.stage === 'set-up') return finish(req, reply, { login: { accountId: pending.accountId } });
        return sendPage(reply, 200, loginPage({ action: steps(details.uid).login }));
      }
      // Consent is granted by loadExistingGrant; any other prompt means the request cannot proceed.
      return finish(req, reply, { error: 'access_denied', error_description: 'This sign-in request cannot be completed.' });
    });

    interactions.post<{ Params: { uid: string }; Body: { login?: string; password?: string } }>(
      `${IDP_MOUNT}/interaction/:uid/login`,
      async (req, reply) => {
        const details = await provider.interactionDetails(req.raw, reply.raw).catch(() => undefined);
        if (!details) return sendPage(reply, 400, loginExpired());
        const login = String(req.body?.login ?? '');
        const password = String(req.body?.password ?? '');
        const action = `${IDP_MOUNT}/interaction/${details.uid}/login`;
        if (!login || !password) {
          return sendPage(reply, 400, loginPage({ action, login, error: 'Email and password are required.' }));
        }
        const result = await signIn.attempt(login, password, req.ip);
        if ('retryAfterSeconds' in result) {
          reply.header('retry-after', String(result.retryAfterSeconds));
          return sendPage(reply, 429, loginPage({ action, login, error: result.error }));
        }
        if ('error' in result) return sendPage(reply, 401, loginPage({ action, login, error: result.error }));
        const pending = { accountId: result.account.id, email: result.account.email };
        if (result.next === 'code') {
          await keepPending(details, { ...pending, stage: 'code' });
          return sendPage(reply, 200, secondFactorPage({ action: steps(details.uid).code }));
        }
        if (result.next === 'enrol') {
          const setup = await opts.twoFactor.setup(pending.accountId);
          await keepPending(details, { ...pending, stage: 'setup' });
          return setupPage(reply, 200, details.uid, setup);
        }
        return finish(req, reply, { login: { accountId: result.account.id } });
      },
    );

    /** A step after the password: the interaction must be waiting for it, else the sign-in starts again. */
    const afterPassword = (
      path: string,
      stage: PendingStep['stage'],
      step: (req: FastifyRequest<{ Body: { code?: string } }>, reply: FastifyReply, details: Interaction, pending: PendingStep) => Promise<unknown>,
    ) =>
      interactions.post<{ Params: { uid: string }; Body: { code?: string } }>(`${IDP_MOUNT}/interaction/:uid/${path}`, async (req, reply) => {
        const details = await provider.interactionDetails(req.raw, reply.raw).catch(() => undefined);
        const pending = details && pendingOf(details);
        if (!details || pending?.stage !== stage) return sendPage(reply, 400, loginExpired());
        return step(req, reply, details, pending);
      });

    afterPassword('second-factor', 'code', async (req, reply, { uid }, pending) => {
      const code = String(req.body?.code ?? '').trim();
      if (!code) return sendPage(reply, 400, secondFactorPage({ action: steps(uid).code, error: 'Code is required.' }));
      const result = await signIn.secondFactor(pending, code, req.ip);
      if ('retryAfterSeconds' in result) reply.header('retry-after', String(result.retryAfterSeconds));
      if ('error' in result) return sendPage(reply, 'retryAfterSeconds' in result ? 429 : 401, secondFactorPage({ action: steps(uid).code, error: result.error }));
      return finish(req, reply, { login: { accountId: pending.accountId } });
    });

    afterPassword('two-factor-setup', 'setup', async (req, reply, details, pending) => {
      const code = String(req.body?.code ?? '').trim();
      const again = async (status: number, error: string) => setupPage(reply, status, details.uid, await opts.twoFactor.pendingSetup(pending.accountId), error);
      if (!code) return again(400, 'Code is required.');
      const result = await signIn.enrol(pending, code, req.ip);
      if ('retryAfterSeconds' in result) reply.header('retry-after', String(result.retryAfterSeconds));
      if ('error' in result) return again('retryAfterSeconds' in result ? 429 : 401, result.error);
      await keepPending(details, { ...pending, stage: 'set-up' });
      return sendPage(reply, 200, recoveryCodesPage({ action: steps(details.uid).done, codes: result.recoveryCodes }));
    });

    afterPassword('continue', 'set-up', (req, reply, _details, pending) => finish(req, reply, { login: { accountId: pending.accountId } }));
  });

  await app.register(async (mounted) => {
    // oidc-provider reads request bodies itself, so fastify must leave the stream untouched here.
    mounted.removeAllContentTypeParsers();
    mounted.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const callback = provider.callback();
    const handle = (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = req.raw as typeof req.raw & { originalUrl?: string };
      // The provider builds its endpoints' URLs from the request's host: that is PUBLIC_URL's, or
      // the host a trusted proxy forwarded (fastify's req.host then differs from the Host header),
      // never whatever Host a client sends (the discovery document would point it elsewhere).
      if (req.host === raw.headers.host) {
        raw.headers.host = opts.publicHost;
        delete raw.headers['x-forwarded-host'];
      }
      // The same for every client now, and a sign-in page loads it each time.
      if (raw.url!.startsWith(`${IDP_MOUNT}/.well-known/`)) reply.raw.setHeader('cache-control', 'public, max-age=300');
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(IDP_MOUNT.length) || '/';
      callback(raw, reply.raw);
    };
    mounted.all(`${IDP_MOUNT}/*`, handle);
  });

  async function finish(req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>) {
    reply.hijack();
    await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
  }
}

/** Between the password and the sign-in's end: the second factor asked, the app being set up, or set up (its recovery codes shown). */
interface PendingStep extends PendingSignIn {
  stage: 'code' | 'setup' | 'set-up';
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The pending step as the interaction keeps it (in the provider's storage, shared by every console, bound to this browser's interaction cookie). */
function pendingOf(details: Interaction): PendingStep | undefined {
  const kept = (details.result as { secondFactor?: PendingStep } | undefined)?.secondFactor;
  return kept && typeof kept.accountId === 'string' ? kept : undefined;
}

async function keepPending(details: Interaction, pending: PendingStep): Promise<void> {
  // A result without `login` signs nobody in: the provider would ask for the password again.
  details.result = { secondFactor: pending };
  await details.save(details.exp - Math.floor(Date.now() / 1000));
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

const loginExpired = () => errorPage('This sign-in page has expired. Go back to Fleetlink and sign in again.');
