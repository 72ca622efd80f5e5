import {
  deleteFileQuerySchema,
  deviceIdParamsSchema,
  diskScanQuerySchema,
  driveDetailSchema,
  fileChangeResultSchema,
  newFolderFormSchema,
  RealmRole,
  renameFileFormSchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DriveScanService } from './drive-scan.service.js';
import type { FilesService } from './files.service.js';

const user = { roles: [RealmRole.User] };
const tags = ['devices'];

/**
 * The Storage page's changes and the drive scan (SPEC §2, §7). The listing itself is the command
 * `file` (commands.routes.ts). Who may do what is the services' business.
 */
export const filesRoutes: FastifyPluginAsyncZod<{ files: FilesService; scans: DriveScanService }> = async (app, { files, scans }) => {
  app.post(
    '/device/:id/folder',
    { config: user, schema: { tags, summary: 'Create a folder on the device', params: deviceIdParamsSchema, body: newFolderFormSchema, response: { 201: fileChangeResultSchema } } },
    async (req, reply) => reply.code(201).send(await files.createFolder(req.principal, req.params.id, req.body)),
  );

  app.post(
    '/device/:id/rename',
    { config: user, schema: { tags, summary: 'Rename a file or folder on the device', params: deviceIdParamsSchema, body: renameFileFormSchema, response: { 200: fileChangeResultSchema } } },
    (req) => files.rename(req.principal, req.params.id, req.body),
  );

  app.delete(
    '/device/:id/file',
    {
      config: user,
      schema: {
        tags,
        summary: 'Delete a file or folder on the device (a folder with contents only with recursive=true)',
        params: deviceIdParamsSchema,
        querystring: deleteFileQuerySchema,
        response: { 200: fileChangeResultSchema },
      },
    },
    (req) => files.remove(req.principal, req.params.id, req.query.path, req.query.recursive),
  );

  app.post(
    '/device/:id/disk',
    {
      config: user,
      schema: { tags, summary: 'Start a scan of one of the device’s drives', params: deviceIdParamsSchema, querystring: diskScanQuerySchema, response: { 202: driveDetailSchema } },
    },
    async (req, reply) => reply.code(202).send(await scans.start(req.principal, req.params.id, req.query.path)),
  );
};
