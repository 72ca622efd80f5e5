import {
  AuditKind,
  ORGANIZATION_HAS_DEVICES,
  type MyOrganization,
  type Organization,
  type Invoice,
  type OrganizationDetail,
  type OrganizationForm,
  type OrganizationUser,
  type OrganizationUserForm,
  type AccountInvitation,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { conflict, notFound } from '../../lib/app-error.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { fieldChanges } from '../audit/field-changes.js';
import type { DomainService } from './domain.service.js';
import type { MemberRow, OrganizationRepository } from './organization.repository.js';
import type { OrganizationPolicy } from './organization.policy.js';
import { isForeignKeyViolation, isUniqueViolation } from './unique-violation.js';

export const toUser = (m: MemberRow): OrganizationUser => ({
  id: m.id,
  email: m.email,
  role: m.role,
  requestDate: m.requestDate.toISOString(),
});

/** The rules of organizations and their members (SPEC §2, §5, §6); access is asked of the policy. */
export class OrganizationService {
  constructor(
    private readonly repo: OrganizationRepository,
    private readonly policy: OrganizationPolicy,
    private readonly domains: DomainService,
    private readonly audit: AuditTrail,
    private readonly invoices: { listFor(organizationId: string): Promise<Invoice[]> },
    /** The built-in provider's people (issue 72): absent with an external issuer, whose accounts are its own. */
    private readonly people?: Pick<AccountsService, 'hasAccount' | 'inviteMember'>,
  ) {}

  mine(p: Principal): Promise<MyOrganization[]> {
    return this.repo.listForMember(p);
  }

  all(): Promise<Organization[]> {
    return this.repo.listAll();
  }

  async detail(p: Principal, id: string): Promise<OrganizationDetail> {
    const role = await this.policy.readOrganization(p, id);
    const org = await this.repo.find(id);
    if (!org) throw notFound('Organization not found.');
    const [devicesCount, members, domains, invoices] = await Promise.all([
      this.repo.countDevices(id),
      this.repo.members(id),
      this.domains.list(id),
      this.invoices.listFor(id),
    ]);
    return { ...org, role, devicesCount, users: members.map(toUser), domains, invoices, proxyHost: this.domains.proxyHost };
  }

  create(p: Principal, form: OrganizationForm): Promise<OrganizationDetail> {
    return this.audit.track(
      p,
      { kind: AuditKind.OrganizationCreate, details: formDetails(form) },
      async () => this.detail(p, await this.repo.create(form, p.username)),
      (org) => ({ organizationId: org.id }),
    );
  }

  async update(p: Principal, id: string, form: OrganizationForm): Promise<OrganizationDetail> {
    const before = await this.repo.find(id);
    const details = before ? { changes: fieldChanges(before, form, organizationFields) } : formDetails(form);
    return this.audit.track(p, { kind: AuditKind.OrganizationUpdate, organizationId: id, details }, async () => {
      await this.policy.manageOrganization(p, id);
      await this.repo.update(id, form);
      return this.detail(p, id);
    });
  }

  remove(p: Principal, id: string): Promise<void> {
    return this.audit.track(p, { kind: AuditKind.OrganizationDelete, organizationId: id }, async () => {
      await this.policy.manageOrganization(p, id);
      if ((await this.repo.countDevices(id)) > 0) throw conflict(ORGANIZATION_HAS_DEVICES);
      try {
        await this.repo.delete(id);
      } catch (err) {
        // A device created between the count and the delete: the foreign key refuses, same answer.
        if (isForeignKeyViolation(err)) throw conflict(ORGANIZATION_HAS_DEVICES);
        throw err;
      }
    });
  }

  addUser(p: Principal, id: string, form: OrganizationUserForm): Promise<OrganizationUser> {
    const action = { kind: AuditKind.MemberAdd, organizationId: id, details: { email: form.email, role: form.role } };
    return this.audit.track(p, action, async () => {
      await this.policy.manageOrganization(p, id);
      const duplicate = () => conflict(`${form.email} is already a member of this organization.`);
      if (await this.repo.findMemberByEmail(id, form.email)) throw duplicate();
      let added: OrganizationUser;
      try {
        added = toUser(await this.repo.addMember(id, form.email, form.role));
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
      return this.people ? { ...added, invitable: !(await this.people.hasAccount(form.email)) } : added;
    });
  }

  /** Invites a member who has no account yet to the built-in provider (issue 72); their membership waits for them. */
  async inviteUser(p: Principal, id: string, memberId: string): Promise<AccountInvitation> {
    await this.policy.manageOrganization(p, id);
    if (!this.people) throw notFound("People sign in with your organization's identity provider: invite them there.");
    const member = await this.repo.findMember(id, memberId);
    if (!member) throw notFound('The member does not exist.');
    return this.people.inviteMember(p, member.email);
  }

  removeUser(p: Principal, id: string, memberId: string): Promise<void> {
    return this.audit.track(
      p,
      { kind: AuditKind.MemberRemove, organizationId: id, details: { memberId } },
      async () => {
        await this.policy.manageOrganization(p, id);
        const member = await this.repo.findMember(id, memberId);
        if (!member) throw notFound('Member not found.');
        if (member.role === 'CREATOR') throw conflict(`The access of ${member.email} cannot be revoked: they created this organization.`);
        await this.repo.removeMember(id, memberId);
        return member;
      },
      (member) => ({ details: { email: member.email, role: member.role } }),
    ).then(() => undefined);
  }
}

/** What an organization form says, as the audit trail keeps it. */
const formDetails = (form: OrganizationForm) => ({ name: form.name, type: form.type, country: form.country ?? null });

const organizationFields = ['type', 'name', 'country', 'address', 'telephone', 'email', 'vat'] as const;
