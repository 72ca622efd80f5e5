import type { AuditFilter } from '@fleetlink/contract';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditExports } from '../../db/schema/index.js';
import type { AuditScope } from './audit.repository.js';

/** What a claimed link exports: the scope and filter it was made for. */
export interface AuditExportGrant {
  scope: AuditScope;
  filter: AuditFilter;
}

/** How long a used or expired link's row is kept (for a look into the database), before the next link sweeps it. */
const KEEP_MS = 24 * 3600_000;

/** The one-time links to a CSV export. */
export class AuditExportsRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new link, and sweeps the rows of links long dead (there are few: one per export). */
  async create(link: { id: string; tokenHash: string; scope: AuditScope; filter: AuditFilter; expiresAt: Date }): Promise<void> {
    await this.db.delete(auditExports).where(lt(auditExports.expiresAt, new Date(Date.now() - KEEP_MS)));
    await this.db.insert(auditExports).values({
      id: link.id,
      tokenHash: link.tokenHash,
      organizationId: link.scope.organizationId ?? null,
      filter: link.filter,
      expiresAt: link.expiresAt,
    });
  }

  /** Uses the link, once: unused, unexpired and with this token, or nothing. */
  async claim(id: string, tokenHash: string, now = new Date()): Promise<AuditExportGrant | undefined> {
    const [row] = await this.db
      .update(auditExports)
      .set({ usedAt: now })
      .where(and(eq(auditExports.id, id), eq(auditExports.tokenHash, tokenHash), isNull(auditExports.usedAt), gt(auditExports.expiresAt, now)))
      .returning({ organizationId: auditExports.organizationId, filter: auditExports.filter });
    if (!row) return undefined;
    return { scope: row.organizationId ? { organizationId: row.organizationId } : {}, filter: row.filter };
  }
}
