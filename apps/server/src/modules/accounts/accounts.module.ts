import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Mailer } from '../../lib/mailer.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { SharedRateLimits } from '../system/shared-rate-limits.js';
import { AccountStanding } from './account-standing.js';
import { AccountsRepository } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { TwoFactorService } from './two-factor.service.js';

/** The built-in provider's people (issue 72): the service behind the Accounts page and the password links, and the standing every request's token is checked against. */
export function accountsModule(o: { env: Env; database: Database; box: SecretBox; mail: Mailer | undefined; audit: AuditTrail; rateLimits: SharedRateLimits; log: FastifyBaseLogger }) {
  const { env, database } = o;
  const standing = new AccountStanding(database.db, database.notices);
  const hit = (key: string, windowMs: number) => o.rateLimits.hit(key, windowMs);
  const twoFactor = new TwoFactorService(new TwoFactorRepository(database.db), o.box, o.audit, { hit });
  const service = new AccountsService(new AccountsRepository(database.db), standing, o.audit, twoFactor, {
    publicUrl: env.PUBLIC_URL,
    mail: o.mail,
    hit,
    log: o.log,
  });
  return { standing, service, twoFactor };
}
