import { z } from 'zod';
import { invoiceSchema } from './invoices.js';
import { domainStatuses, organizationRoles, organizationTypes } from '../forms/organization-form.js';

/** Path parameters: ids are UUIDs, so a malformed id is a 400, never a database error. */
export const organizationParamsSchema = z.object({ id: z.uuid('The organization id is not valid.') });
export const organizationUserParamsSchema = organizationParamsSchema.extend({ userId: z.uuid('The member id is not valid.') });
export const organizationDomainParamsSchema = organizationParamsSchema.extend({ domainId: z.uuid('The domain id is not valid.') });

export const organizationSchema = z.object({
  id: z.string(),
  type: z.enum(organizationTypes),
  name: z.string(),
  country: z.string().nullable(),
  address: z.string().nullable(),
  telephone: z.string().nullable(),
  email: z.string().nullable(),
  vat: z.string().nullable(),
});
export type Organization = z.infer<typeof organizationSchema>;

/** GET /api/organizations: mine, each with my role in it. */
export const myOrganizationSchema = organizationSchema.extend({ role: z.enum(organizationRoles) });
export type MyOrganization = z.infer<typeof myOrganizationSchema>;
export const myOrganizationsSchema = z.array(myOrganizationSchema);
export type MyOrganizations = z.infer<typeof myOrganizationsSchema>;
export const allOrganizationsSchema = z.array(organizationSchema);
export type AllOrganizations = z.infer<typeof allOrganizationsSchema>;

export const organizationUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(organizationRoles),
  requestDate: z.iso.datetime({ offset: true }),
  /**
   * Only in the answer to adding a member, with the built-in provider: nobody signs in with this
   * email yet, and the page offers to invite them (issue 72).
   */
  invitable: z.boolean().optional(),
});
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

export const organizationDomainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  status: z.enum(domainStatuses),
  /** Why the last check failed, e.g. 'No CNAME record found for x.'; null when ACTIVE or unchecked. */
  statusReason: z.string().nullable(),
  checkedAt: z.iso.datetime({ offset: true }).nullable(),
  creationDate: z.iso.datetime({ offset: true }),
  /** The TXT record that proves the domain is this organization's: `_fleetlink-challenge.{domain}` holding `value`. */
  challenge: z.object({ name: z.string(), value: z.string() }),
  /** Whether that record was found (once proven, the domain stays this organization's). */
  proven: z.boolean(),
});
export type OrganizationDomain = z.infer<typeof organizationDomainSchema>;

/** GET /api/organization/{id}. */
export const organizationDetailSchema = myOrganizationSchema.extend({
  devicesCount: z.number().int(),
  users: z.array(organizationUserSchema),
  domains: z.array(organizationDomainSchema),
  /** Its invoices, newest first. */
  invoices: z.array(invoiceSchema),
  /** The host a custom domain's CNAME record must point to (the tunnel proxy). */
  proxyHost: z.string(),
});
export type OrganizationDetail = z.infer<typeof organizationDetailSchema>;

export const ORGANIZATION_HAS_DEVICES = 'It is not possible to remove this organization, it has devices linked.';

/** SPEC §7 Organizations, served under /api. */
export const organizationRoutes = {
  list: { method: 'GET', path: '/organizations', role: 'USER' },
  detail: { method: 'GET', path: '/organization/:id', role: 'USER' },
  all: { method: 'GET', path: '/all-organizations', role: 'ADMIN' },
  create: { method: 'POST', path: '/organization', role: 'USER' },
  update: { method: 'PUT', path: '/organization/:id', role: 'USER' },
  remove: { method: 'DELETE', path: '/organization/:id', role: 'USER', errors: [409] },
  addUser: { method: 'POST', path: '/organization/:id/user', role: 'USER', errors: [409] },
  removeUser: { method: 'DELETE', path: '/organization/:id/user/:userId', role: 'USER', errors: [409] },
  inviteUser: { method: 'POST', path: '/organization/:id/user/:userId/invitation', role: 'USER', errors: [409, 429] },
  addDomain: { method: 'POST', path: '/organization/:id/domain', role: 'USER', errors: [409] },
  removeDomain: { method: 'DELETE', path: '/organization/:id/domain/:domainId', role: 'USER' },
} as const;
