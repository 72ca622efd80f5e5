import { AuditKind, type OrganizationDomain } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { conflict, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { challengeName, checkDomain, type DnsLookup } from './domain-check.js';
import type { DomainRepository, DomainRow } from './domain.repository.js';
import type { OrganizationPolicy } from './organization.policy.js';
import { isUniqueViolation } from './unique-violation.js';

export const toDomain = (d: DomainRow): OrganizationDomain => ({
  id: d.id,
  domain: d.domain,
  status: d.status,
  statusReason: d.statusReason,
  checkedAt: d.checkedAt?.toISOString() ?? null,
  creationDate: d.creationDate.toISOString(),
  challenge: { name: challengeName(d.domain), value: d.challengeToken },
  proven: d.provenAt !== null,
});

/**
 * Custom domains: registered PENDING, ACTIVE once the organization proved the name its own (a TXT
 * record with its token) and its CNAME points at the tunnel proxy host. Several organizations may
 * claim a name no one proved; the first to prove it takes it from the others.
 */
export class DomainService {
  constructor(
    private readonly repo: DomainRepository,
    private readonly policy: OrganizationPolicy,
    private readonly lookup: DnsLookup,
    readonly proxyHost: string,
    private readonly audit: AuditTrail,
  ) {}

  async list(organizationId: string): Promise<OrganizationDomain[]> {
    return (await this.repo.listFor(organizationId)).map(toDomain);
  }

  /** Registers the domain and checks it right away, so the answer already says ACTIVE or why not. */
  register(p: Principal, organizationId: string, domain: string): Promise<OrganizationDomain> {
    return this.audit.track(
      p,
      { kind: AuditKind.DomainAdd, organizationId, details: { domain } },
      async () => {
        await this.policy.manageOrganization(p, organizationId);
        const taken = () => conflict(`The domain ${domain} is already registered.`);
        const claims = await this.repo.claimsOf(domain);
        if (claims.some((c) => c.provenAt !== null || c.organizationId === organizationId)) throw taken();
        let row: DomainRow;
        try {
          row = await this.repo.add(organizationId, domain);
        } catch (err) {
          if (isUniqueViolation(err)) throw taken();
          throw err;
        }
        return toDomain((await this.check(row)) ?? row);
      },
      (added) => ({ details: { status: added.status } }),
    );
  }

  revoke(p: Principal, organizationId: string, domainId: string): Promise<void> {
    return this.audit
      .track(
        p,
        { kind: AuditKind.DomainRemove, organizationId, details: { domainId } },
        async () => {
          await this.policy.manageOrganization(p, organizationId);
          const row = await this.repo.find(organizationId, domainId);
          if (!row) throw notFound('Domain not found.');
          await this.repo.remove(organizationId, domainId);
          return row;
        },
        (removed) => ({ details: { domain: removed.domain } }),
      )
      .then(() => undefined);
  }

  /** Looks the records up and records the outcome; undefined when the domain was removed meanwhile. */
  async check(row: DomainRow, now = new Date()): Promise<DomainRow | undefined> {
    const result = await checkDomain(this.lookup, row.domain, this.proxyHost, { token: row.challengeToken, proven: row.provenAt !== null });
    if (result.proven && row.provenAt === null) {
      const removed = await this.repo.prove(row, now);
      if (!removed) return this.repo.recordCheck(row.id, 'FAILED', `Another organization proved ${row.domain} its own first.`, now);
      for (const lost of removed) {
        await this.audit.record(
          { username: null, subject: null },
          { kind: AuditKind.DomainRemove, organizationId: lost.organizationId, details: { domain: lost.domain, domainId: lost.id, reason: 'Another organization proved the domain its own.' } },
          { error: null },
        );
      }
    }
    return this.repo.recordCheck(row.id, result.status, result.reason, now);
  }

  /** One round of the periodic re-check: domains not checked within `maxAgeMs`, a batch at a time. */
  async checkDue(maxAgeMs: number, batch = 50): Promise<number> {
    const due = await this.repo.dueForCheck(new Date(Date.now() - maxAgeMs), batch);
    for (const row of due) await this.check(row);
    return due.length;
  }
}
