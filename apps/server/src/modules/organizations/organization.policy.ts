import type { Principal } from '../../auth/principal.js';
import { notFound, forbidden } from '../../lib/app-error.js';
import type { MembershipRepository, OrganizationRole } from './membership.repository.js';

/** The roles that manage an organization (edit, delete, members, domains, alerts) and write its devices (SPEC §6). */
export const MANAGING_ROLES: readonly OrganizationRole[] = ['CREATOR', 'ADMIN'];
export const canManage = (role: OrganizationRole | undefined) => role !== undefined && MANAGING_ROLES.includes(role);
export const canRead = (role: OrganizationRole | undefined) => role !== undefined;

/**
 * The one place that decides who may touch an organization or a device. A non-member gets the
 * same 404 as for an id that does not exist, so ids reveal nothing.
 */
export class OrganizationPolicy {
  constructor(private readonly memberships: MembershipRepository) {}

  async readOrganization(p: Principal, organizationId: string): Promise<OrganizationRole> {
    const role = await this.memberships.roleIn(organizationId, p);
    if (!canRead(role)) throw notFound('Organization not found.');
    return role!;
  }

  async manageOrganization(p: Principal, organizationId: string): Promise<OrganizationRole> {
    const role = await this.readOrganization(p, organizationId);
    if (!canManage(role)) throw forbidden('Only the creator or an administrator of this organization can do this.');
    return role;
  }

  /** Creating a device in an organization needs CREATOR or ADMIN there. */
  async createDeviceIn(p: Principal, organizationId: string): Promise<void> {
    const role = await this.memberships.roleIn(organizationId, p);
    if (!canManage(role)) {
      throw forbidden('You can only create devices in organizations where you are the creator or an administrator.');
    }
  }

  async readDevice(p: Principal, deviceId: string): Promise<{ organizationId: string; role: OrganizationRole }> {
    const found = await this.memberships.roleForDevice(deviceId, p);
    if (!found || !canRead(found.role)) throw notFound('Device not found.');
    return { organizationId: found.organizationId, role: found.role! };
  }

  async writeDevice(p: Principal, deviceId: string): Promise<{ organizationId: string; role: OrganizationRole }> {
    const access = await this.readDevice(p, deviceId);
    if (!canManage(access.role)) throw forbidden('Only the creator or an administrator of the organization can change this device.');
    return access;
  }
}
