import { AuditKind, grantedOrganizations, type OrganizationGrant } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { ORG_MAP, type MembershipRepository } from '../organizations/membership.repository.js';
import type { UsersRepository } from './users.repository.js';

export interface UsersServiceOptions {
  /** OIDC_ORG_MAP: organizations whose members the provider's groups make (issue 62). */
  organizationGrants?: readonly OrganizationGrant[];
  /** Where the memberships the groups change are written. */
  audit?: AuditTrail;
  /** Writes at most once per this many ms per user, unless their roles or groups changed. */
  intervalMs?: number;
}

/**
 * Records who signs in. Writes at most once per interval per user, so API calls don't each cost a
 * write, and at once when the person's roles or groups changed (a demotion reaches their API tokens
 * at the next call); makes sure every user has a PERSONAL organization to create devices in, and
 * gives them the organizations their groups map to.
 */
export class UsersService {
  private readonly lastWrite = new Map<string, { at: number; identity: string }>();
  private readonly grants: readonly OrganizationGrant[];
  private readonly intervalMs: number;

  constructor(
    private readonly repo: UsersRepository,
    private readonly memberships: MembershipRepository,
    private readonly opts: UsersServiceOptions = {},
  ) {
    this.grants = opts.organizationGrants ?? [];
    this.intervalMs = opts.intervalMs ?? 60_000;
  }

  async seen(p: Principal, now = new Date()): Promise<void> {
    const identity = JSON.stringify([p.roles, p.groups ?? []]);
    const previous = this.lastWrite.get(p.subject);
    if (previous && previous.identity === identity && now.getTime() - previous.at < this.intervalMs) return;
    this.lastWrite.set(p.subject, { at: now.getTime(), identity });
    await this.repo.recordSeen(p, now);
    await this.memberships.ensurePersonalOrganization(p);
    if (this.grants.length) await this.applyOrganizationMap(p);
  }

  private async applyOrganizationMap(p: Principal) {
    const changes = await this.memberships.applyGrants(p.username, grantedOrganizations(p.groups ?? [], this.grants));
    for (const c of changes) {
      const kind = c.change === 'removed' ? AuditKind.MemberRemove : AuditKind.MemberAdd;
      // The person's own sign-in caused it; the details say the groups decided.
      await this.opts.audit?.record(p, { kind, organizationId: c.organizationId, details: { email: p.username, role: c.role, source: ORG_MAP, change: c.change } }, { error: null });
    }
  }
}
