import {
  accountCreateSchema,
  accountInvitationSchema,
  accountListQuerySchema,
  accountListSchema,
  accountParamsSchema,
  accountSchema,
  accountSettingsSchema,
  accountUpdateSchema,
  myAccountSchema,
  myAccountUpdateSchema,
  RealmRole,
  recoveryCodesSchema,
  twoFactorCodeSchema,
  twoFactorSetupSchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountsService } from './accounts.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const tags = ['accounts'];
const admin = { roles: [RealmRole.Admin] };
/** Any signed-in person, a guest too: their own account. */
const signedIn = { roles: [] };

/** The built-in provider's accounts (issue 72, realm ADMIN); only served while it is the issuer. Thin: the rules are the service's. */
export const accountsRoutes: FastifyPluginAsyncZod<{ service: AccountsService; twoFactor: TwoFactorService }> = async (app, { service, twoFactor }) => {
  app.get('/account', { config: signedIn, schema: { tags, summary: 'My account at the built-in sign-in: email, name, last sign-in', response: { 200: myAccountSchema } } }, (req) =>
    service.mine(req.principal),
  );

  app.put(
    '/account',
    { config: signedIn, schema: { tags, summary: 'Change my name, or my password (with the current one)', body: myAccountUpdateSchema, response: { 200: myAccountSchema } } },
    (req) => service.changeMine(req.principal, req.body),
  );

  app.get(
    '/accounts',
    { config: admin, schema: { tags, summary: 'Accounts of the built-in sign-in, by email; search finds text in the email or name', querystring: accountListQuerySchema, response: { 200: accountListSchema } } },
    (req) => service.list(req.query),
  );

  app.post(
    '/accounts',
    {
      config: admin,
      schema: { tags, summary: 'Invite a person: an account, and a one-time link to choose a password (mailed, or in this answer without mail)', body: accountCreateSchema, response: { 201: accountInvitationSchema } },
    },
    async (req, reply) => reply.code(201).header('cache-control', 'no-store').send(await service.create(req.principal, req.body)),
  );

  app.put(
    '/accounts/:id',
    { config: admin, schema: { tags, summary: "Change an account's name or role, or disable it (its sessions and tokens stop at once) or enable it", params: accountParamsSchema, body: accountUpdateSchema, response: { 200: accountSchema } } },
    (req) => service.update(req.principal, req.params.id, req.body),
  );

  app.delete('/accounts/:id', { config: admin, schema: { tags, summary: 'Delete an account (the audit trail keeps its email)', params: accountParamsSchema } }, async (req, reply) => {
    await service.remove(req.principal, req.params.id);
    return reply.code(204).send();
  });

  app.post(
    '/accounts/:id/invitation',
    { config: admin, schema: { tags, summary: 'Invite again someone who has not chosen a password: a new link, the one before stops opening', params: accountParamsSchema, response: { 200: accountInvitationSchema } } },
    async (req, reply) => reply.header('cache-control', 'no-store').send(await service.invite(req.principal, req.params.id)),
  );

  // Two-factor authentication: the person's own (each change proven with a code), an ADMIN's reset and rule.
  const secretAnswer = { 'cache-control': 'no-store' };
  app.post(
    '/account/two-factor/setup',
    { config: signedIn, schema: { tags, summary: 'Set up two-factor authentication: a new secret and its QR code for the authenticator app (on once a code proves it)', response: { 200: twoFactorSetupSchema } } },
    async (req, reply) => reply.headers(secretAnswer).send(await twoFactor.setup(req.principal.subject)),
  );

  app.post(
    '/account/two-factor',
    { config: signedIn, schema: { tags, summary: 'Turn two-factor authentication on with a code from the app: the 10 recovery codes, shown this once', body: twoFactorCodeSchema, response: { 200: recoveryCodesSchema } } },
    async (req, reply) => reply.headers(secretAnswer).send(await twoFactor.enableLimited(req.principal, req.principal.subject, req.body.code)),
  );

  app.post(
    '/account/two-factor/recovery-codes',
    { config: signedIn, schema: { tags, summary: 'New recovery codes in place of the old ones (with a code from the app)', body: twoFactorCodeSchema, response: { 200: recoveryCodesSchema } } },
    async (req, reply) => reply.headers(secretAnswer).send(await twoFactor.newRecoveryCodes(req.principal, req.principal.subject, req.body.code)),
  );

  app.post(
    '/account/two-factor/disable',
    { config: signedIn, schema: { tags, summary: 'Turn two-factor authentication off (with a code from the app or a recovery code)', body: twoFactorCodeSchema } },
    async (req, reply) => {
      await twoFactor.disable(req.principal, req.principal.subject, req.body.code);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/accounts/:id/two-factor',
    { config: admin, schema: { tags, summary: "Reset a person's two-factor authentication (a lost phone): off until they set it up again", params: accountParamsSchema } },
    async (req, reply) => {
      await twoFactor.reset(req.principal, req.params.id);
      return reply.code(204).send();
    },
  );

  app.get('/account-settings', { config: admin, schema: { tags, summary: "The realm's sign-in rules", response: { 200: accountSettingsSchema } } }, () => twoFactor.settings());

  app.put(
    '/account-settings',
    { config: admin, schema: { tags, summary: "Change the realm's sign-in rules: require a second factor of every ADMIN", body: accountSettingsSchema, response: { 200: accountSettingsSchema } } },
    (req) => twoFactor.changeSettings(req.principal, req.body),
  );
};
