import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationFormSchema } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { devices, organizationMembers, organizations } from '../../db/schema/index.js';

/** The organization form's email rule (trimmed, valid, lowercased). */
const organizationEmail = organizationFormSchema.in.shape.email;

export type OrganizationRole = 'CREATOR' | 'ADMIN' | 'USER';

/** The SQL behind every access decision: who is a member of what, with which role. */
export class MembershipRepository {
  constructor(private readonly db: Db) {}

  async roleIn(organizationId: string, username: string): Promise<OrganizationRole | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, username)));
    return row?.role;
  }

  /** The device's organization and the caller's role in it, in one query. */
  async roleForDevice(deviceId: string, username: string): Promise<{ organizationId: string; role?: OrganizationRole } | undefined> {
    const [row] = await this.db
      .select({ organizationId: devices.organizationId, role: organizationMembers.role })
      .from(devices)
      .leftJoin(
        organizationMembers,
        and(eq(organizationMembers.organizationId, devices.organizationId), eq(organizationMembers.email, username)),
      )
      .where(eq(devices.id, deviceId));
    return row && { organizationId: row.organizationId, role: row.role ?? undefined };
  }

  /** Every organization the user belongs to, with their role. */
  async organizationsOf(username: string): Promise<{ organizationId: string; role: OrganizationRole }[]> {
    return this.db
      .select({ organizationId: organizationMembers.organizationId, role: organizationMembers.role })
      .from(organizationMembers)
      .where(eq(organizationMembers.email, username));
  }

  /**
   * Creates the user's PERSONAL organization (CREATOR) unless they already have one, with what the
   * token says of them: their name and email. Country and address are theirs to give (its Summary
   * says so). Only an email the form would take is kept: a login name that is no email address is
   * not one.
   */
  async ensurePersonalOrganization(p: Pick<Principal, 'subject' | 'username' | 'name' | 'email'>): Promise<void> {
    const email = [p.email, p.username].map((candidate) => organizationEmail.safeParse(candidate)).find((parsed) => parsed.success)?.data ?? null;
    await this.db.transaction(async (tx) => {
      const [org] = await tx
        .insert(organizations)
        .values({ type: 'PERSONAL', name: p.name ?? p.username, email, personalOf: p.subject })
        .onConflictDoNothing({ target: organizations.personalOf })
        .returning({ id: organizations.id });
      if (org) await tx.insert(organizationMembers).values({ organizationId: org.id, email: p.username, role: 'CREATOR' });
    });
  }
}
