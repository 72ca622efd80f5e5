import type { DomainStatus } from '@fleetlink/contract';
import { and, asc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationDomains } from '../../db/schema/index.js';
import { isUniqueViolation } from './unique-violation.js';

export type DomainRow = typeof organizationDomains.$inferSelect;

/** SQL of organizations' custom domains, their ownership proof and their check state. */
export class DomainRepository {
  constructor(private readonly db: Db) {}

  async listFor(organizationId: string): Promise<DomainRow[]> {
    return this.db
      .select()
      .from(organizationDomains)
      .where(eq(organizationDomains.organizationId, organizationId))
      .orderBy(asc(organizationDomains.creationDate), asc(organizationDomains.domain));
  }

  async find(organizationId: string, domainId: string): Promise<DomainRow | undefined> {
    const [row] = await this.db
      .select()
      .from(organizationDomains)
      .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, domainId)));
    return row;
  }

  /** Every organization's claim on the name (at most one of them proven). */
  async claimsOf(domain: string): Promise<DomainRow[]> {
    return this.db.select().from(organizationDomains).where(eq(organizationDomains.domain, domain));
  }

  /**
   * The claim is proven: it holds the name from now on, and the claims of organizations that never
   * proved it go (their tunnels on it fall back to the proxy's own domain). Answers the claims
   * removed; undefined when another organization proved the name first.
   */
  async prove(row: DomainRow, at: Date): Promise<DomainRow[] | undefined> {
    try {
      return await this.db.transaction(async (tx) => {
        const removed = await tx
          .delete(organizationDomains)
          .where(and(eq(organizationDomains.domain, row.domain), isNull(organizationDomains.provenAt), ne(organizationDomains.id, row.id)))
          .returning();
        await tx.update(organizationDomains).set({ provenAt: at }).where(eq(organizationDomains.id, row.id));
        return removed;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /** Only ACTIVE domains may be chosen for tunnels (issue 5). */
  async activeFor(organizationId: string): Promise<DomainRow[]> {
    return this.db
      .select()
      .from(organizationDomains)
      .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.status, 'ACTIVE')))
      .orderBy(asc(organizationDomains.domain));
  }

  async add(organizationId: string, domain: string): Promise<DomainRow> {
    const [row] = await this.db.insert(organizationDomains).values({ organizationId, domain }).returning();
    return row;
  }

  async remove(organizationId: string, domainId: string): Promise<void> {
    await this.db
      .delete(organizationDomains)
      .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, domainId)));
  }

  /** Domains never checked or last checked before `before`, least recently checked first. */
  async dueForCheck(before: Date, limit: number): Promise<DomainRow[]> {
    return this.db
      .select()
      .from(organizationDomains)
      .where(or(isNull(organizationDomains.checkedAt), lt(organizationDomains.checkedAt, before)))
      .orderBy(sql`${organizationDomains.checkedAt} asc nulls first`)
      .limit(limit);
  }

  async recordCheck(id: string, status: DomainStatus, reason: string | null, at: Date): Promise<DomainRow | undefined> {
    const [row] = await this.db
      .update(organizationDomains)
      .set({ status, statusReason: reason, checkedAt: at, checkCount: sql`${organizationDomains.checkCount} + 1` })
      .where(eq(organizationDomains.id, id))
      .returning();
    return row;
  }
}
