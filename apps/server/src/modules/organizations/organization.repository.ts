import type { OrganizationForm, MemberRole } from '@fleetlink/contract';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Member } from '../../auth/principal.js';
import { membershipOf } from './membership.repository.js';
import { devices, organizationMembers, organizations } from '../../db/schema/index.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type MemberRow = typeof organizationMembers.$inferSelect;

const columns = {
  id: organizations.id,
  type: organizations.type,
  name: organizations.name,
  country: organizations.country,
  address: organizations.address,
  telephone: organizations.telephone,
  email: organizations.email,
  vat: organizations.vat,
};

/** SQL of organizations and their members. Access decisions live in the policy, not here. */
export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  /** The organizations the user is a member of, with their role, oldest first. */
  async listForMember(member: Member) {
    return this.db
      .select({ ...columns, role: organizationMembers.role })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(membershipOf(member))
      .orderBy(asc(organizations.createdAt), asc(organizations.name));
  }

  async listAll() {
    return this.db.select(columns).from(organizations).orderBy(asc(organizations.name), asc(organizations.createdAt));
  }

  async find(id: string) {
    const [row] = await this.db.select(columns).from(organizations).where(eq(organizations.id, id));
    return row;
  }

  async countDevices(id: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(devices).where(eq(devices.organizationId, id));
    return Number(row?.n ?? 0);
  }

  async members(id: string): Promise<MemberRow[]> {
    return this.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.organizationId, id))
      .orderBy(asc(organizationMembers.requestDate), asc(organizationMembers.email));
  }

  /** Creates the organization with its creator as CREATOR member, atomically. */
  async create(values: OrganizationForm, creatorEmail: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [org] = await tx.insert(organizations).values(values).returning({ id: organizations.id });
      await tx.insert(organizationMembers).values({ organizationId: org.id, email: creatorEmail, role: 'CREATOR' });
      return org.id;
    });
  }

  async update(id: string, values: OrganizationForm): Promise<void> {
    await this.db.update(organizations).set(values).where(eq(organizations.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(organizations).where(eq(organizations.id, id));
  }

  async findMember(organizationId: string, memberId: string): Promise<MemberRow | undefined> {
    const [row] = await this.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.id, memberId)));
    return row;
  }

  async findMemberByEmail(organizationId: string, email: string): Promise<MemberRow | undefined> {
    const [row] = await this.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, email)));
    return row;
  }

  async addMember(organizationId: string, email: string, role: MemberRole): Promise<MemberRow> {
    const [row] = await this.db.insert(organizationMembers).values({ organizationId, email, role }).returning();
    return row;
  }

  async removeMember(organizationId: string, memberId: string): Promise<void> {
    await this.db
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.id, memberId)));
  }
}
