import { and, asc, desc, eq, gt, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import { deviceLifetimes, invoiceCounters, invoiceLinks, invoices, organizations } from '../../db/schema/index.js';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceInsert = Omit<typeof invoices.$inferInsert, 'id' | 'number' | 'createdAt'>;

/** One span of a device in an organization, with the organization as it is now (the invoice's buyer). */
export interface BillableSpan {
  organizationId: string;
  organization: { type: 'PERSONAL' | 'COMPANY'; name: string; country: string | null; address: string | null; email: string | null; vat: string | null };
  deviceId: string;
  deviceName: string;
  startedAt: Date;
  endedAt: Date | null;
}

/** Any fixed number: the key of the advisory lock that lets one invoice run at a time on a database. */
const RUN_LOCK_KEY = 0x1f1ce;

/** How long a used or expired link's row is kept before the next link sweeps it. */
const KEEP_LINKS_MS = 24 * 3600_000;

/** SQL of invoices, their numbers, their PDF links, and the device history they bill. */
export class InvoicesRepository {
  constructor(private readonly db: DbExecutor) {}

  /**
   * Runs `work` in one transaction that holds the invoice-run lock: a second run (here or on another
   * console of the same database) waits, then finds this one's invoices. Numbers are taken in the
   * transaction that inserts their invoices, so a run that fails gives its numbers back: no gaps.
   */
  runExclusively<T>(work: (repo: InvoicesRepository) => Promise<T>): Promise<T> {
    return (this.db as Db).transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK_KEY})`);
      return work(new InvoicesRepository(tx));
    });
  }

  /** The spans of devices that belonged to an existing organization at some time in [from, to). */
  async spansBetween(from: Date, to: Date): Promise<BillableSpan[]> {
    const rows = await this.db
      .select({
        organizationId: deviceLifetimes.organizationId,
        type: organizations.type,
        name: organizations.name,
        country: organizations.country,
        address: organizations.address,
        email: organizations.email,
        vat: organizations.vat,
        deviceId: deviceLifetimes.deviceId,
        deviceName: deviceLifetimes.deviceName,
        startedAt: deviceLifetimes.startedAt,
        endedAt: deviceLifetimes.endedAt,
      })
      .from(deviceLifetimes)
      .innerJoin(organizations, eq(organizations.id, deviceLifetimes.organizationId))
      .where(and(lt(deviceLifetimes.startedAt, to), or(isNull(deviceLifetimes.endedAt), gt(deviceLifetimes.endedAt, from))))
      .orderBy(asc(organizations.name), asc(deviceLifetimes.organizationId), asc(deviceLifetimes.deviceName), asc(deviceLifetimes.startedAt));
    return rows.map(({ type, name, country, address, email, vat, ...span }) => ({
      ...span,
      organization: { type, name, country, address, email, vat },
    }));
  }

  async invoicedOrganizations(period: string): Promise<Set<string>> {
    const rows = await this.db.select({ id: invoices.organizationId }).from(invoices).where(eq(invoices.period, period));
    return new Set(rows.map((r) => r.id));
  }

  /** Inserts an invoice under the next number of `year` (`2026-0001`). */
  async insert(year: number, invoice: InvoiceInsert): Promise<InvoiceRow> {
    const [counter] = await this.db
      .insert(invoiceCounters)
      .values({ year, last: 1 })
      .onConflictDoUpdate({ target: invoiceCounters.year, set: { last: sql`${invoiceCounters.last} + 1` } })
      .returning({ last: invoiceCounters.last });
    const number = `${year}-${String(counter.last).padStart(4, '0')}`;
    const [row] = await this.db.insert(invoices).values({ ...invoice, number }).returning();
    return row;
  }

  /** An organization's invoices, newest first. */
  listFor(organizationId: string) {
    return this.db
      .select({ id: invoices.id, number: invoices.number, date: invoices.invoiceDate, period: invoices.period, totalCents: invoices.totalCents })
      .from(invoices)
      .where(eq(invoices.organizationId, organizationId))
      .orderBy(desc(invoices.invoiceDate), desc(invoices.number));
  }

  /** Whether the organization has this invoice (its id only: the lines stay unread until a PDF is made). */
  async exists(organizationId: string, invoiceId: string): Promise<boolean> {
    const rows = await this.db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.organizationId, organizationId)));
    return rows.length > 0;
  }

  /** Stores a PDF link, and sweeps the rows of links long dead. */
  async createLink(link: { id: string; tokenHash: string; invoiceId: string; expiresAt: Date }): Promise<void> {
    await this.db.delete(invoiceLinks).where(lt(invoiceLinks.expiresAt, new Date(Date.now() - KEEP_LINKS_MS)));
    await this.db.insert(invoiceLinks).values(link);
  }

  /** Uses a link, once: unused, unexpired and with this token; its invoice, or nothing. */
  async claimLink(id: string, tokenHash: string, now = new Date()): Promise<InvoiceRow | undefined> {
    const [link] = await this.db
      .update(invoiceLinks)
      .set({ usedAt: now })
      .where(and(eq(invoiceLinks.id, id), eq(invoiceLinks.tokenHash, tokenHash), isNull(invoiceLinks.usedAt), gte(invoiceLinks.expiresAt, now)))
      .returning({ invoiceId: invoiceLinks.invoiceId });
    if (!link) return undefined;
    const [row] = await this.db.select().from(invoices).where(eq(invoices.id, link.invoiceId));
    return row;
  }
}
