import {
  proxyDeviceLoginResultSchema,
  proxyDeviceLoginSchema,
  proxyForwardRequestSchema,
  proxyForwardSchema,
  proxyHostKnownRequestSchema,
  proxyHelloSchema,
  proxyHostKnownSchema,
  proxyRevocationsRequestSchema,
  proxyRevocationsSchema,
  proxyRoutes,
  proxyTunnelStateSchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProxyApiService } from './proxy-api.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The PROXY server calling the proxy API. */
    proxyServerId: string;
  }
}

const path = (route: { path: string }) => route.path.replace(/^\/api/, '');

/**
 * The proxy API (contract `proxyRoutes`): no person's token; a proxy signs in with its server's id
 * and password (HTTP Basic), checked before every call.
 */
export const proxyApiRoutes: FastifyPluginAsyncZod<{ service: ProxyApiService }> = async (app, { service }) => {
  const tags = ['proxy'];
  const config = { public: true };
  const security = [{ proxyBasic: [] }];
  app.decorateRequest('proxyServerId', '');
  app.addHook('preHandler', async (req) => {
    req.proxyServerId = await service.authenticate(req.headers.authorization);
  });

  app.post(
    path(proxyRoutes.deviceLogin),
    { config, schema: { tags, security, summary: 'A device signs in at a proxy', body: proxyDeviceLoginSchema, response: { 200: proxyDeviceLoginResultSchema } } },
    (req) => service.deviceLogin(req.body.username, req.body.password),
  );
  app.post(
    path(proxyRoutes.forward),
    { config, schema: { tags, security, summary: 'The tunnel a device’s forward is, with its security', body: proxyForwardRequestSchema, response: { 200: proxyForwardSchema } } },
    (req) => service.forward(req.proxyServerId, req.body.deviceId, req.body.port, req.body.credential),
  );
  app.post(
    path(proxyRoutes.state),
    { config, schema: { tags, security, summary: 'A proxy reports a tunnel connected or disconnected', body: proxyTunnelStateSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await service.state(req.proxyServerId, req.body);
      return reply.code(204).send(null);
    },
  );
  app.post(
    path(proxyRoutes.hostKnown),
    { config, schema: { tags, security, summary: 'Whether a host name is a registered tunnel', body: proxyHostKnownRequestSchema, response: { 200: proxyHostKnownSchema } } },
    async (req) => ({ known: await service.hostKnown(req.body.path, req.body.customDomain) }),
  );
  app.post(
    path(proxyRoutes.hello),
    { config, schema: { tags, security, summary: 'A proxy starts: none of its tunnels is connected', body: proxyHelloSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await service.hello(req.proxyServerId, req.body.domain);
      return reply.code(204).send(null);
    },
  );
  app.post(
    path(proxyRoutes.revocations),
    { config, schema: { tags, security, summary: 'Devices whose connections at this proxy must end', body: proxyRevocationsRequestSchema, response: { 200: proxyRevocationsSchema } } },
    (req) => service.revocations(req.proxyServerId, req.body.after),
  );
};
