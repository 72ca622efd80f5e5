import multipart from '@fastify/multipart';
import { deviceIdParamsSchema, downloadQuerySchema, FILE_PATH_MAX, fileChangeResultSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unlessCut } from '../../plugins/errors.js';
import { tooLarge, type TransfersService, type UploadPart } from './transfers.service.js';

const user = { roles: [RealmRole.User] };
const tags = ['devices'];
/** What the multipart framing and the two small fields may add to the file's own size. */
const FORM_OVERHEAD = 64 * 1024;

/** Ends when the person's request does (a Cancel, a closed tab) before its answer went out. */
function abandoned(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** SPEC §7 `POST /upload/{id}` and `GET /request-download/{id}?path=`. Who may do what is the service's business. */
export const transfersRoutes: FastifyPluginAsyncZod<{ service: TransfersService; uploadMaxBytes: number }> = async (app, { service, uploadMaxBytes }) => {
  app.get(
    '/request-download/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'Have the device send a file; answers the relative URL that downloads it, once, within 5 minutes',
        params: deviceIdParamsSchema,
        querystring: downloadQuerySchema,
        response: { 200: z.string() },
      },
    },
    async (req, reply) => reply.type('text/plain; charset=utf-8').send(await service.requestDownload(req.principal, req.params.id, req.query.path, abandoned(reply))),
  );

  await app.register(async (context) => {
    const uploads = context.withTypeProvider<ZodTypeProvider>();
    await uploads.register(multipart, {
      // The file is streamed to the blob store, which enforces the limit itself and says so (413).
      limits: { fileSize: uploadMaxBytes + 1, files: 1, fields: 4, parts: 5, fieldSize: FILE_PATH_MAX * 4 },
      throwFileSizeLimit: true,
      // The name as the browser sent it, so the form's rules refuse a path (busboy would quietly cut it).
      preservePath: true,
      // Bigger buffers between the parser and the blob store: fewer, larger writes.
      fileHwm: 1 << 20,
    });
    uploads.post(
      '/upload/:id',
      {
        config: user,
        schema: {
          tags,
          summary: 'Upload a file into a folder of the device (multipart: path and overwrite, then file)',
          consumes: ['multipart/form-data'],
          params: deviceIdParamsSchema,
          response: { 201: fileChangeResultSchema },
        },
      },
      async (req, reply) => {
        // Refused before a byte is read when the size is known to be too much.
        if (Number(req.headers['content-length']) > uploadMaxBytes + FORM_OVERHEAD) throw tooLarge(uploadMaxBytes);
        return unlessCut(reply, async () => {
          const result = await service.upload(req.principal, req.params.id, req.parts() as AsyncIterable<UploadPart>, abandoned(reply));
          return reply.code(201).send(result);
        });
      },
    );
  });
};
