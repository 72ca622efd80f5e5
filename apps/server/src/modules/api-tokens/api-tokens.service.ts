import {
  ALL_API_TOKENS_MAX,
  API_TOKEN_PREFIX,
  apiTokenLimits,
  AuditKind,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenForm,
  type ApiTokenList,
} from '@fleetlink/contract';
import { actsForTheRealm, type Principal } from '../../auth/principal.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { sha256 } from '../enrollment/credentials.js';
import type { MembershipRepository } from '../organizations/membership.repository.js';
import type { ApiTokenListRow, ApiTokensRepository } from './api-tokens.repository.js';

const DAY_MS = 86_400_000;

const toApiToken = (r: ApiTokenListRow): ApiToken => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  organizations: r.organizationNames,
  owner: { subject: r.ownerSubject, username: r.ownerUsername },
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt?.toISOString() ?? null,
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  lastUsedAddress: r.lastUsedAddress,
});

/** A person's API tokens: made from a sign-in, never from another token, and listed without their secrets. */
export class ApiTokensService {
  constructor(
    private readonly repo: ApiTokensRepository,
    private readonly memberships: Pick<MembershipRepository, 'organizationsOf'>,
    private readonly audit: AuditTrail,
    private readonly opts: { noExpiryAllowed: boolean },
  ) {}

  async mine(p: Principal): Promise<ApiTokenList> {
    const rows = await this.repo.list({ ownerSubject: p.subject, limit: ALL_API_TOKENS_MAX });
    return { items: rows.map(toApiToken), noExpiryAllowed: this.opts.noExpiryAllowed };
  }

  async all(): Promise<ApiTokenList> {
    const rows = await this.repo.list({ limit: ALL_API_TOKENS_MAX });
    return { items: rows.map(toApiToken), noExpiryAllowed: this.opts.noExpiryAllowed };
  }

  create(p: Principal, form: ApiTokenForm, now = new Date()): Promise<ApiTokenCreated> {
    const details = { name: form.name, scope: form.scope, expiresInDays: form.expiresInDays, organizations: form.organizations };
    return this.audit.track(
      p,
      { kind: AuditKind.ApiTokenCreate, details },
      async () => {
        // A leaked token must not be able to make itself a successor that outlives its revocation.
        if (p.apiToken) throw forbidden('An API token cannot create API tokens: sign in to the console to create one.');
        if (form.expiresInDays === null && !this.opts.noExpiryAllowed) {
          throw badRequest('Tokens that never expire are not allowed here: choose an expiry of at most 365 days.', {
            expiresInDays: 'Choose an expiry of at most 365 days.',
          });
        }
        const active = await this.repo.activeOf(p.subject, now);
        if (active.some((t) => t.name === form.name)) throw conflict(`You already have a token named ${form.name}: choose another name.`);
        if (active.length >= apiTokenLimits.perUser) {
          throw conflict(`You have ${apiTokenLimits.perUser} tokens already, the most one person may hold: revoke one you no longer use first.`);
        }
        const organizationIds = form.organizations.length ? [...new Set(form.organizations.map((id) => id.toLowerCase()))] : null;
        if (organizationIds) {
          const mine = new Set((await this.memberships.organizationsOf(p)).map((m) => m.organizationId));
          const foreign = organizationIds.filter((id) => !mine.has(id));
          if (foreign.length) {
            throw badRequest(`A token can only be limited to your own organizations: you are not a member of ${foreign.join(', ')}.`, {
              organizations: 'Choose organizations you are a member of.',
            });
          }
        }
        const { token } = newLinkToken();
        const secret = `${API_TOKEN_PREFIX}${token}`;
        const id = await this.repo.insert({
          ownerSubject: p.subject,
          name: form.name,
          secretHash: sha256(secret),
          scope: form.scope,
          organizationIds,
          expiresAt: form.expiresInDays === null ? null : new Date(now.getTime() + form.expiresInDays * DAY_MS),
        });
        return { ...toApiToken((await this.repo.find(id))!), secret };
      },
      (created) => ({ details: { tokenId: created.id } }),
    );
  }

  /** Its owner, or a realm ADMIN, revokes it; anyone else gets the 404 of a token that does not exist. */
  async revoke(p: Principal, id: string, now = new Date()): Promise<void> {
    const token = await this.repo.find(id);
    const mayRevoke = token && (token.ownerSubject === p.subject || actsForTheRealm(p));
    if (!token || !mayRevoke) throw notFound('API token not found.');
    const details = { tokenId: id, name: token.name, owner: token.ownerUsername ?? token.ownerSubject };
    await this.audit.track(p, { kind: AuditKind.ApiTokenRevoke, details }, async () => {
      // Another console or person may have revoked it a moment ago: then it is gone all the same.
      if (!(await this.repo.revoke(id, now))) throw notFound('API token not found.');
    });
  }
}
