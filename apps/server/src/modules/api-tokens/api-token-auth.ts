import { API_TOKEN_PREFIX, apiTokenSecretPattern, AuditKind, READ_ONLY_METHODS, RealmRole } from '@fleetlink/contract';
import { actsForTheRealm, type Principal } from '../../auth/principal.js';
import { InvalidTokenError } from '../../auth/token-verifier.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { sha256 } from '../enrollment/credentials.js';
import type { ApiTokensRepository } from './api-tokens.repository.js';

/** A token's last use is written at most this often (issue 62), by whichever console sees it first. */
export const LAST_USE_EVERY_MS = 60_000;
/** Pairs of token and address this console remembers having recorded; past it, it forgets them all. */
const KNOWN_ADDRESSES_MAX = 10_000;

export const isApiTokenSecret = (bearer: string) => bearer.startsWith(API_TOKEN_PREFIX);

/** The day of a date, as the messages name it. */
const day = (d: Date) => d.toISOString().slice(0, 10);

export interface ApiTokenAuthOptions {
  repo: ApiTokensRepository;
  audit: AuditTrail;
  /** `API_TOKEN_OWNER_DAYS`: an owner not seen signing in for this long has left the provider. */
  ownerDays: number;
  /** `API_TOKEN_RATE_LIMIT`: requests per token and minute. */
  perMinute: number;
  /** Counts one request under a key in a shared window (SharedRateLimits.hit). */
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
  log: { error(o: object, m: string): void };
}

/** Why a token's call is refused after it was recognised: the status, the message, and when to try again. */
export interface TokenRefusal {
  status: 403 | 429;
  message: string;
  retryAfterSeconds?: number;
}

/**
 * Personal API tokens at the door (issue 62): finds the token by its hash in the database (so a
 * revocation holds on every console at once), makes its owner the caller with the roles of their
 * last sign-in, and narrows them by the token's scope and organizations.
 */
export class ApiTokenAuth {
  private readonly lastUseWritten = new Map<string, number>();
  private readonly knownAddresses = new Set<string>();

  constructor(private readonly opts: ApiTokenAuthOptions) {}

  /** The owner as the caller, or an InvalidTokenError that says whether the token is unknown, revoked or expired. */
  async authenticate(secret: string, address: string, now = new Date()): Promise<Principal> {
    const found = apiTokenSecretPattern.test(secret) ? await this.opts.repo.findBySecretHash(sha256(secret)) : undefined;
    if (!found) throw new InvalidTokenError('This API token is unknown: it was not issued by this console, or not copied whole.');
    const { token, owner } = found;
    if (token.revokedAt) throw new InvalidTokenError(`This API token was revoked on ${day(token.revokedAt)}: create a new one under API tokens in your profile.`);
    if (token.expiresAt && token.expiresAt <= now) {
      throw new InvalidTokenError(`This API token expired on ${day(token.expiresAt)}: create a new one under API tokens in your profile.`);
    }
    if (!owner || owner.lastSeenAt.getTime() < now.getTime() - this.opts.ownerDays * 86_400_000) {
      throw new InvalidTokenError(
        `This API token's owner has not signed in for more than ${this.opts.ownerDays} days, so it no longer works: its owner must sign in to the console again.`,
      );
    }
    const principal: Principal = {
      subject: token.ownerSubject,
      sessionId: null,
      username: owner.username,
      name: owner.name,
      email: owner.email,
      // The roles of the last sign-in: a demoted person's tokens lose the role at their next one.
      realmRoles: owner.roles,
      clientRoles: {},
      roles: owner.roles,
      clientAddress: address,
      ...(token.organizationIds ? { organizationLimit: token.organizationIds } : {}),
      apiToken: { id: token.id, name: token.name, scope: token.scope },
    };
    await this.recordUse(principal, address, now);
    return principal;
  }

  /**
   * What the token may not do although its owner may: counts the request against the token's rate
   * limit, then checks its scope, and keeps a token limited to organizations off the realm-wide routes.
   */
  async refusal(p: Principal, method: string, routeRoles: readonly string[]): Promise<TokenRefusal | undefined> {
    const token = p.apiToken;
    if (!token) return undefined;
    const { current, ttl } = await this.opts.hit(`api-token:${token.id}`, 60_000);
    if (current > this.opts.perMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil(ttl / 1000));
      return {
        status: 429,
        retryAfterSeconds,
        message: `This API token made more than ${this.opts.perMinute} requests in a minute: try again in ${retryAfterSeconds} seconds.`,
      };
    }
    if (token.scope === 'READ' && !READ_ONLY_METHODS.includes(method)) {
      return { status: 403, message: `This API token is read-only: it can only read (GET and HEAD), not ${method}.` };
    }
    if (routeRoles.includes(RealmRole.Admin) && !actsForTheRealm(p)) {
      return {
        status: 403,
        message: 'This API token is limited to some organizations: it cannot use the realm administration routes, which reach every organization.',
      };
    }
    return undefined;
  }

  /** Last used (at most once a minute) and, the first time from an address, an audit entry. */
  private async recordUse(p: Principal, address: string, now: Date) {
    const token = p.apiToken!;
    const pair = `${token.id} ${address}`;
    const last = this.lastUseWritten.get(token.id) ?? 0;
    if (now.getTime() - last < LAST_USE_EVERY_MS && this.knownAddresses.has(pair)) return;
    try {
      if (now.getTime() - last >= LAST_USE_EVERY_MS) {
        this.lastUseWritten.set(token.id, now.getTime());
        await this.opts.repo.recordUse(token.id, address, now, LAST_USE_EVERY_MS);
      }
      if (!this.knownAddresses.has(pair)) {
        if (this.knownAddresses.size >= KNOWN_ADDRESSES_MAX) this.knownAddresses.clear();
        this.knownAddresses.add(pair);
        if (await this.opts.repo.firstUseFrom(token.id, address, now)) {
          await this.opts.audit.record(p, { kind: AuditKind.ApiTokenNewAddress, details: { tokenId: token.id } }, { error: null });
        }
      }
    } catch (err) {
      // The call itself goes on: its last-use record is a convenience, logged when it cannot be written.
      this.opts.log.error({ err, tokenId: token.id }, 'API token: its use could not be recorded');
    }
    if (this.lastUseWritten.size > KNOWN_ADDRESSES_MAX) this.lastUseWritten.clear();
  }
}
