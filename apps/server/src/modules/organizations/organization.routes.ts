import {
  accountInvitationSchema,
  allOrganizationsSchema,
  myOrganizationsSchema,
  organizationDetailSchema,
  organizationDomainFormSchema,
  organizationDomainParamsSchema,
  organizationDomainSchema,
  organizationFormSchema,
  organizationParamsSchema,
  organizationUserFormSchema,
  organizationUserParamsSchema,
  organizationUserSchema,
  RealmRole,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DomainService } from './domain.service.js';
import type { OrganizationService } from './organization.service.js';

interface OrganizationRoutesOptions {
  organizations: OrganizationService;
  domains: DomainService;
}

const user = { roles: [RealmRole.User] };
const tags = ['organizations'];

/** SPEC §7 Organizations. Thin: validation by the contract's schemas, rules in the services. */
export const organizationRoutes: FastifyPluginAsyncZod<OrganizationRoutesOptions> = async (app, { organizations, domains }) => {
  app.get(
    '/organizations',
    { config: user, schema: { tags, summary: 'My organizations, with my role', response: { 200: myOrganizationsSchema } } },
    (req) => organizations.mine(req.principal),
  );

  app.get(
    '/all-organizations',
    {
      config: { roles: [RealmRole.Admin] },
      schema: { tags, summary: 'Every organization (realm ADMIN)', response: { 200: allOrganizationsSchema } },
    },
    () => organizations.all(),
  );

  app.get(
    '/organization/:id',
    {
      config: user,
      schema: { tags, summary: 'An organization with devices count, members and domains', params: organizationParamsSchema, response: { 200: organizationDetailSchema } },
    },
    (req) => organizations.detail(req.principal, req.params.id),
  );

  app.post(
    '/organization',
    { config: user, schema: { tags, summary: 'Create an organization; the caller becomes CREATOR', body: organizationFormSchema, response: { 201: organizationDetailSchema } } },
    async (req, reply) => reply.code(201).send(await organizations.create(req.principal, req.body)),
  );

  app.put(
    '/organization/:id',
    {
      config: user,
      schema: { tags, summary: 'Update an organization', params: organizationParamsSchema, body: organizationFormSchema, response: { 200: organizationDetailSchema } },
    },
    (req) => organizations.update(req.principal, req.params.id, req.body),
  );

  app.delete(
    '/organization/:id',
    { config: user, schema: { tags, summary: 'Delete an organization without devices', params: organizationParamsSchema } },
    async (req, reply) => {
      await organizations.remove(req.principal, req.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/organization/:id/user',
    {
      config: user,
      schema: { tags, summary: 'Add a member', params: organizationParamsSchema, body: organizationUserFormSchema, response: { 201: organizationUserSchema } },
    },
    async (req, reply) => reply.code(201).send(await organizations.addUser(req.principal, req.params.id, req.body)),
  );

  app.post(
    '/organization/:id/user/:userId/invitation',
    {
      config: user,
      schema: {
        tags,
        summary: 'Invite a member who has no account yet to the built-in sign-in (a one-time link, mailed or in this answer)',
        params: organizationUserParamsSchema,
        response: { 200: accountInvitationSchema },
      },
    },
    async (req, reply) => reply.header('cache-control', 'no-store').send(await organizations.inviteUser(req.principal, req.params.id, req.params.userId)),
  );

  app.delete(
    '/organization/:id/user/:userId',
    { config: user, schema: { tags, summary: 'Revoke a member (not the CREATOR)', params: organizationUserParamsSchema } },
    async (req, reply) => {
      await organizations.removeUser(req.principal, req.params.id, req.params.userId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/organization/:id/domain',
    {
      config: user,
      schema: {
        tags,
        summary: 'Register a custom domain; checked for a CNAME to the proxy host right away',
        params: organizationParamsSchema,
        body: organizationDomainFormSchema,
        response: { 201: organizationDomainSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await domains.register(req.principal, req.params.id, req.body.domain)),
  );

  app.delete(
    '/organization/:id/domain/:domainId',
    { config: user, schema: { tags, summary: 'Remove a custom domain', params: organizationDomainParamsSchema } },
    async (req, reply) => {
      await domains.revoke(req.principal, req.params.id, req.params.domainId);
      return reply.code(204).send();
    },
  );
};
