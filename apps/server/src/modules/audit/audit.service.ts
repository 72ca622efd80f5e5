import { decodeAuditCursor, encodeAuditCursor, type AuditCursor, type AuditEntry, type AuditFilter, type AuditPage, type AuditQuery } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { auditCsvHeader, auditCsvLine } from './audit-csv.js';
import type { AuditRepository, AuditRow, AuditScope } from './audit.repository.js';

/** Rows per query while a CSV export streams: bounded memory whatever the size of the trail. */
const EXPORT_BATCH = 500;

/** Where the page after this row starts. */
const cursorAfter = (r: AuditRow): AuditCursor => ({ time: r.time, id: String(r.id) });

export const toAuditEntry = (r: AuditRow): AuditEntry => ({
  id: String(r.id),
  time: r.time.toISOString(),
  username: r.username,
  subject: r.subject,
  clientAddress: r.clientAddress,
  kind: r.kind as AuditEntry['kind'],
  organization: r.organizationId ? { id: r.organizationId, name: r.organizationName } : null,
  device: r.deviceId ? { id: r.deviceId, name: r.deviceName } : null,
  details: r.details,
  outcome: r.outcome,
  error: r.error,
});

/**
 * Reading the audit trail: all of it for realm ADMIN (the route checks the role), one
 * organization's entries for its CREATOR or ADMIN (the policy checks; a USER member gets 403, a
 * non-member the same 404 as a missing organization).
 */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly policy: OrganizationPolicy,
  ) {}

  operatorPage(q: AuditQuery): Promise<AuditPage> {
    return this.page({}, q);
  }

  async organizationPage(p: Principal, organizationId: string, q: AuditQuery): Promise<AuditPage> {
    await this.policy.manageOrganization(p, organizationId);
    return this.page({ organizationId }, q);
  }

  operatorExport(filter: AuditFilter): AsyncIterable<string> {
    return this.csv({}, filter);
  }

  /** Access is decided before the first byte, so a refusal is still a clean 4xx. */
  async organizationExport(p: Principal, organizationId: string, filter: AuditFilter): Promise<AsyncIterable<string>> {
    await this.policy.manageOrganization(p, organizationId);
    return this.csv({ organizationId }, filter);
  }

  private async page(scope: AuditScope, q: AuditQuery): Promise<AuditPage> {
    const cursor = q.after ? decodeAuditCursor(q.after) : undefined;
    // One row more than asked tells whether an older page exists.
    const rows = await this.repo.page(scope, q, cursor, q.size + 1);
    const entries = rows.slice(0, q.size);
    const last = entries.at(-1);
    const next = rows.length > q.size && last ? encodeAuditCursor(cursorAfter(last)) : null;
    return { entries: entries.map(toAuditEntry), next };
  }

  private async *csv(scope: AuditScope, filter: AuditFilter): AsyncIterable<string> {
    yield auditCsvHeader();
    let cursor: AuditCursor | undefined;
    for (;;) {
      const rows = await this.repo.page(scope, filter, cursor, EXPORT_BATCH);
      if (rows.length) yield rows.map((r) => auditCsvLine(toAuditEntry(r))).join('');
      if (rows.length < EXPORT_BATCH) return;
      cursor = cursorAfter(rows.at(-1)!);
    }
  }
}
