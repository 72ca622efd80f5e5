import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { loadOrCreateConsoleSecret } from '../system/console-secrets.js';
import { Captcha } from './captcha.js';
import { CaptchaRedemptionsRepository } from './captcha-redemptions.repository.js';
import { ContactMailer } from './contact-mailer.js';
import type { Mailer } from '../../lib/mailer.js';
import { ContactRepository } from './contact.repository.js';
import { contactRoutes } from './contact.routes.js';
import { ContactService } from './contact.service.js';

type ContactEnv = Pick<
  Env,
  'CAPTCHA_SECRET' | 'CAPTCHA_COST' | 'CAPTCHA_TTL_SECONDS' | 'CONTACT_TO' | 'CONTACT_RATE_LIMIT_USER' | 'CONTACT_RATE_LIMIT_ADDRESS'
>;

/** Composes the contact form: its CAPTCHA, its store, its mail to the operator (when SMTP_URL is set), its routes. */
export async function registerContact(
  api: FastifyInstance,
  { db, box, env, mail, rateLimitStore }: { db: Db; box: SecretBox; env: ContactEnv; mail: Mailer | undefined; rateLimitStore: FastifyRateLimitStoreCtor },
): Promise<ContactService> {
  const captcha = new Captcha(
    { secret: env.CAPTCHA_SECRET ?? (await loadOrCreateConsoleSecret(db, box, 'captcha-hmac', () => randomBytes(32).toString('base64url'))), cost: env.CAPTCHA_COST, ttlSeconds: env.CAPTCHA_TTL_SECONDS },
    new CaptchaRedemptionsRepository(db),
  );
  const mailer = mail && env.CONTACT_TO ? new ContactMailer(mail, env.CONTACT_TO) : undefined;
  const service = new ContactService(new ContactRepository(db), captcha, mailer, api.log);
  await api.register(contactRoutes, { service, limits: { perUser: env.CONTACT_RATE_LIMIT_USER, perAddress: env.CONTACT_RATE_LIMIT_ADDRESS, store: rateLimitStore } });
  if (mailer) api.addHook('onReady', () => service.settleInterrupted());
  api.addHook('onClose', () => service.settled());
  return service;
}
