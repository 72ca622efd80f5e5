import { randomUUID } from 'node:crypto';
import {
  AUDIT_EXPORT_URL_TTL_MS,
  auditExportUrl,
  decodeAuditCursor,
  encodeAuditCursor,
  ErrorCode,
  type AuditCursor,
  type AuditEntry,
  type AuditFilter,
  type AuditPage,
  type AuditQuery,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { AppError } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import { sha256 } from '../enrollment/credentials.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { auditCsvHeader, auditCsvLine } from './audit-csv.js';
import type { AuditExportsRepository } from './audit-exports.repository.js';
import type { AuditRepository, AuditRow, AuditScope } from './audit.repository.js';

/** Rows per query while a CSV export streams: bounded memory whatever the size of the trail. */
const EXPORT_BATCH = 500;

const LINK_GONE = 'This export link was used already or has expired: export again from the audit trail.';

/** An export as the browser saves it: its lines as they are read, and the start of its file name. */
export interface AuditCsv {
  lines: AsyncIterable<string>;
  name: 'fleetlink-audit' | 'fleetlink-activity';
}

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
    private readonly exports: AuditExportsRepository,
    private readonly policy: OrganizationPolicy,
  ) {}

  operatorPage(q: AuditQuery): Promise<AuditPage> {
    return this.page({}, q);
  }

  async organizationPage(p: Principal, organizationId: string, q: AuditQuery): Promise<AuditPage> {
    await this.policy.manageOrganization(p, organizationId);
    return this.page({ organizationId }, q);
  }

  /**
   * The CSV of what this reader may see, for an API client with its bearer token. Access is decided
   * before the first byte, so a refusal is still a clean 4xx.
   */
  async exportCsv(p: Principal, scope: AuditScope, filter: AuditFilter): Promise<AuditCsv> {
    await this.mayRead(p, scope);
    return this.csvOf(scope, filter);
  }

  /**
   * A one-time link to the same CSV, for a browser: it opens the link and saves the file as it
   * streams, so an export of a million entries never sits in the page's memory.
   */
  async exportLink(p: Principal, scope: AuditScope, filter: AuditFilter): Promise<string> {
    await this.mayRead(p, scope);
    const id = randomUUID();
    const { token, hash } = newLinkToken();
    await this.exports.create({ id, tokenHash: hash, scope, filter, expiresAt: new Date(Date.now() + AUDIT_EXPORT_URL_TTL_MS) });
    return auditExportUrl(id, token);
  }

  /** What a link exports, once; a used, expired or wrong one is 410. */
  async exportByLink(id: string, token: string): Promise<AuditCsv> {
    const grant = await this.exports.claim(id, sha256(token));
    if (!grant) throw new AppError(410, ErrorCode.NotFound, LINK_GONE);
    return this.csvOf(grant.scope, grant.filter);
  }

  /** The route checks the realm role of the whole trail; an organization's managers are checked here. */
  private async mayRead(p: Principal, scope: AuditScope): Promise<void> {
    if (scope.organizationId) await this.policy.manageOrganization(p, scope.organizationId);
  }

  private csvOf(scope: AuditScope, filter: AuditFilter): AuditCsv {
    return { lines: this.csv(scope, filter), name: scope.organizationId ? 'fleetlink-activity' : 'fleetlink-audit' };
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
