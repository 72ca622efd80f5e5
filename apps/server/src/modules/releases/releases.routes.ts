import multipart from '@fastify/multipart';
import {
  agentDownloadParamsSchema,
  agentDownloadRoutes,
  agentDownloadsSchema,
  agentReleaseSchema,
  deviceIdParamsSchema,
  bundleListSchema,
  bundleNameParamsSchema,
  bundleParamsSchema,
  bundleSchema,
  RealmRole,
  releaseFormSchema,
  releaseListSchema,
  releaseParamsSchema,
  releaseRoutes,
  releaseSchema,
  ROLLOUT_DEVICES_PAGE,
  rolloutActionParamsSchema,
  rolloutDevicesSchema,
  rolloutFormSchema,
  rolloutRoutes,
  rolloutWaveParamsSchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unlessCut } from '../../plugins/errors.js';
import type { UploadPart } from '../transfers/transfers.service.js';
import { bundleTooLarge, type BundlesService } from './bundles.service.js';
import type { ReleasesService } from './releases.service.js';
import type { AgentDownloadsService } from './agent-downloads.service.js';
import type { RolloutsService } from './rollouts.service.js';
import { attachment } from '../transfers/http-file-names.js';

const admin = { roles: [RealmRole.Admin] };
const user = { roles: [RealmRole.User] };
const tags = ['releases'];
const path = (route: { path: string }) => route.path.replace(/^\/api/, '');
/** What the multipart framing may add to the archive's own size. */
const FORM_OVERHEAD = 64 * 1024;

/** SPEC §7 Bundles and releases (realm ADMIN), and the agents' `GET /api/agent/release`. */
export const releasesRoutes: FastifyPluginAsyncZod<{
  bundles: BundlesService;
  releases: ReleasesService;
  rollouts: RolloutsService;
  downloads: AgentDownloadsService;
  bundleMaxBytes: number;
}> = async (app, { bundles, releases, rollouts, downloads, bundleMaxBytes }) => {
  app.get(path(releaseRoutes.bundles), { config: admin, schema: { tags, summary: 'Uploaded agent bundles', response: { 200: bundleListSchema } } }, () => bundles.list());
  app.get(path(releaseRoutes.bundleNames), { config: admin, schema: { tags, summary: 'Names of the uploaded bundles', response: { 200: z.array(z.string()) } } }, () =>
    bundles.names(),
  );
  app.get(
    path(releaseRoutes.bundleVersions),
    { config: admin, schema: { tags, summary: 'Versions of one bundle, newest first', params: bundleNameParamsSchema, response: { 200: z.array(z.string()) } } },
    (req) => bundles.versions(req.params.name),
  );
  app.delete(
    path(releaseRoutes.deleteBundle),
    { config: admin, schema: { tags, summary: 'Delete a bundle no release holds', params: bundleParamsSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await bundles.delete(req.principal, req.params.name, req.params.version);
      return reply.code(204).send(null);
    },
  );

  await app.register(async (context) => {
    const uploads = context.withTypeProvider<ZodTypeProvider>();
    await uploads.register(multipart, { limits: { fileSize: bundleMaxBytes + 1, files: 1, fields: 2, parts: 3 }, throwFileSizeLimit: true });
    uploads.post(
      path(releaseRoutes.uploadBundle),
      { config: admin, schema: { tags, summary: 'Upload an agent bundle (multipart: file, a .tar.gz with manifest.json)', consumes: ['multipart/form-data'], response: { 201: bundleSchema } } },
      async (req, reply) => {
        // Refused before a byte is read when the size is known to be too much.
        if (Number(req.headers['content-length']) > bundleMaxBytes + FORM_OVERHEAD) throw bundleTooLarge(bundleMaxBytes);
        return unlessCut(reply, async () => reply.code(201).send(await bundles.upload(req.principal, req.parts() as AsyncIterable<UploadPart>)));
      },
    );
  });

  app.get(path(releaseRoutes.releases), { config: admin, schema: { tags, summary: 'Releases, newest version first', response: { 200: releaseListSchema } } }, () =>
    releases.list(),
  );
  app.post(
    path(releaseRoutes.createRelease),
    { config: admin, schema: { tags, summary: 'Publish bundle versions to a release branch', body: releaseFormSchema, response: { 201: releaseSchema } } },
    async (req, reply) => reply.code(201).send(await releases.create(req.principal, req.body)),
  );
  app.delete(
    path(releaseRoutes.deleteRelease),
    { config: admin, schema: { tags, summary: 'Delete a release', params: releaseParamsSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await releases.delete(req.principal, req.params.branch, req.params.version);
      return reply.code(204).send(null);
    },
  );

  // Staged rollouts (issue 65).
  app.put(
    path(rolloutRoutes.set),
    { config: admin, schema: { tags, summary: 'Roll a release out in waves, or to every device at once', params: releaseParamsSchema, body: rolloutFormSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await rollouts.set(req.principal, await releases.release(req.params.branch, req.params.version), req.body);
      return reply.code(204).send(null);
    },
  );
  app.post(
    path(rolloutRoutes.act),
    {
      config: admin,
      schema: { tags, summary: "Pause, resume or abort a release's rollout, or roll the release back", params: releaseParamsSchema.extend(rolloutActionParamsSchema.shape), response: { 204: z.null() } },
    },
    async (req, reply) => {
      await rollouts.act(req.principal, await releases.release(req.params.branch, req.params.version), req.params.action);
      return reply.code(204).send(null);
    },
  );
  app.get(
    path(rolloutRoutes.wave),
    {
      config: admin,
      schema: { tags, summary: `The devices of one wave of a rollout, by name (the first ${ROLLOUT_DEVICES_PAGE})`, params: releaseParamsSchema.extend(rolloutWaveParamsSchema.shape), response: { 200: rolloutDevicesSchema } },
    },
    async (req) => rollouts.wave(await releases.release(req.params.branch, req.params.version), req.params.wave, ROLLOUT_DEVICES_PAGE),
  );

  app.get(
    path(releaseRoutes.agentRelease),
    {
      config: { public: true },
      schema: { tags, summary: "The release an agent's device should run (device account, HTTP Basic)", security: [{ deviceBasic: [] }], response: { 200: agentReleaseSchema } },
    },
    (req) => releases.forAgent(req.headers.authorization),
  );
  app.get(
    path(releaseRoutes.agentBundle),
    {
      config: { public: true },
      schema: { tags, summary: "A bundle of the agent's device's releases (device account, HTTP Basic)", security: [{ deviceBasic: [] }], params: bundleParamsSchema },
    },
    async (req, reply) => {
      const bundle = await releases.bundleForAgent(req.headers.authorization, req.params.name, req.params.version);
      return reply.type('application/gzip').header('content-length', bundle.size).header('cache-control', 'no-store').send(bundle.stream);
    },
  );

  // The Install page's downloads: any member of the device's organization (they hold no secret).
  app.get(
    path(agentDownloadRoutes.list),
    { config: user, schema: { tags, summary: "The agent downloads of the device's release, with their sizes", params: deviceIdParamsSchema, response: { 200: agentDownloadsSchema } } },
    (req) => downloads.list(req.principal, req.params.id),
  );
  app.get(
    path(agentDownloadRoutes.file),
    { config: user, schema: { tags, summary: 'Download the Linux installer or the portable archive', params: agentDownloadParamsSchema } },
    async (req, reply) => {
      const file = await downloads.file(req.principal, req.params.id, req.params.kind);
      return reply
        .type(req.params.kind === 'installer' ? 'text/x-shellscript' : 'application/gzip')
        .header('content-length', file.size)
        .header('content-disposition', attachment(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
};
