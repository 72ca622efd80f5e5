import { and, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationFormSchema } from '@fleetlink/contract';
import type { Member, Principal } from '../../auth/principal.js';
import { devices, organizationMembers, organizations } from '../../db/schema/index.js';

/** The organization form's email rule (trimmed, valid, lowercased). */
const organizationEmail = organizationFormSchema.in.shape.email;

export type OrganizationRole = 'CREATOR' | 'ADMIN' | 'USER';

/**
 * The membership rows a caller may act through: their own, and of those only the organizations an
 * API token is limited to. Every query that decides access by membership goes through this one.
 */
export function membershipOf(member: Member): SQL {
  const own = eq(organizationMembers.email, member.username);
  return member.organizationLimit ? and(own, inArray(organizationMembers.organizationId, [...member.organizationLimit]))! : own;
}

/**
 * The member's role in an organization, as a sub-select of a statement that reads what the
 * organization holds (one round trip for the access check and the answer; issue 69). `username`
 * is the statement's placeholder; what an API token's organization limit allows is roleWithin's.
 * The statement must join a second table: drizzle leaves the table names out of a statement on one
 * table, and the sub-select would compare its own columns.
 */
export const memberRoleIn = (organizationId: AnyColumn | SQL, username: SQL | SQL.Aliased | ReturnType<typeof sql.placeholder>) =>
  sql<OrganizationRole | null>`(select ${organizationMembers.role} from ${organizationMembers}
    where ${organizationMembers.organizationId} = ${organizationId} and ${organizationMembers.email} = ${username})`;

/** The role memberRoleIn found, unless the member is an API token limited to other organizations (membershipOf's rule). */
export function roleWithin(member: Member, organizationId: string, role: OrganizationRole | null | undefined): OrganizationRole | undefined {
  if (member.organizationLimit && !member.organizationLimit.includes(organizationId)) return undefined;
  return role ?? undefined;
}

/** The SQL behind every access decision: who is a member of what, with which role. */
export class MembershipRepository {
  constructor(private readonly db: Db) {}

  async roleIn(organizationId: string, member: Member): Promise<OrganizationRole | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), membershipOf(member)));
    return row?.role;
  }

  /** The device's organization and the caller's role in it, in one query. */
  async roleForDevice(deviceId: string, member: Member): Promise<{ organizationId: string; role?: OrganizationRole } | undefined> {
    const [row] = await this.db
      .select({ organizationId: devices.organizationId, role: organizationMembers.role })
      .from(devices)
      .leftJoin(organizationMembers, and(eq(organizationMembers.organizationId, devices.organizationId), membershipOf(member)))
      .where(eq(devices.id, deviceId));
    return row && { organizationId: row.organizationId, role: row.role ?? undefined };
  }

  /** Every organization the user belongs to, with their role. */
  async organizationsOf(member: Member): Promise<{ organizationId: string; role: OrganizationRole }[]> {
    return this.db
      .select({ organizationId: organizationMembers.organizationId, role: organizationMembers.role })
      .from(organizationMembers)
      .where(membershipOf(member));
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

  /**
   * Makes the memberships the identity provider's groups give (OIDC_ORG_MAP) what they say, in one
   * transaction: adds the missing ones, sets the role of those the map gave or that had another role,
   * and takes away those the map gave that no group gives any more. A CREATOR is never touched, and a
   * membership added by hand with the same role stays the organization's own.
   */
  async applyGrants(username: string, granted: ReadonlyMap<string, 'ADMIN' | 'USER'>): Promise<MembershipChange[]> {
    return this.db.transaction(async (tx) => {
      const changes: MembershipChange[] = [];
      const current = await tx
        .select({ organizationId: organizationMembers.organizationId, role: organizationMembers.role, grantedBy: organizationMembers.grantedBy })
        .from(organizationMembers)
        .where(eq(organizationMembers.email, username));
      const byOrganization = new Map(current.map((m) => [m.organizationId, m]));
      for (const [organizationId, role] of granted) {
        const existing = byOrganization.get(organizationId);
        if (!existing) {
          // An organization deleted since the map was written is skipped, not an error at every sign-in.
          const [organization] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId));
          if (!organization) continue;
          const added = await tx
            .insert(organizationMembers)
            .values({ organizationId, email: username, role, grantedBy: ORG_MAP })
            .onConflictDoNothing()
            .returning({ organizationId: organizationMembers.organizationId });
          if (added.length) changes.push({ organizationId, role, change: 'added' });
        } else if (existing.role !== 'CREATOR' && existing.role !== role) {
          await tx
            .update(organizationMembers)
            .set({ role, grantedBy: ORG_MAP })
            .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, username)));
          changes.push({ organizationId, role, change: 'changed' });
        }
      }
      for (const m of current) {
        if (m.grantedBy !== ORG_MAP || m.role === 'CREATOR' || granted.has(m.organizationId)) continue;
        await tx.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, m.organizationId), eq(organizationMembers.email, username)));
        changes.push({ organizationId: m.organizationId, role: m.role, change: 'removed' });
      }
      return changes;
    });
  }
}

/** What `granted_by` says of a membership the identity provider's groups made. */
export const ORG_MAP = 'OIDC_ORG_MAP';

export interface MembershipChange {
  organizationId: string;
  role: OrganizationRole;
  change: 'added' | 'changed' | 'removed';
}
