import { linkTokenQuerySchema, transferParamsSchema } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import type { BlobGate } from './blob-gate.js';
import { attachment } from './http-file-names.js';

/** Authorized by the transfer's token (and the device's account for an agent), not by a bearer token. */
const open = { public: true };
const tags = ['transfers'];
const schema = { tags, params: transferParamsSchema, querystring: linkTokenQuerySchema, security: [] };
/** An agent's side: the transfer's token and, in HTTP Basic, the device's id and its MQTT password. */
const agentSchema = { ...schema, security: [{ deviceBasic: [] }] };

/** The blob URLs: the agents' side of a transfer, and the browser's download link. */
export const blobRoutes: FastifyPluginAsyncZod<{ gate: BlobGate }> = async (app, { gate }) => {
  // An agent's PUT body is the file itself: streamed to the blob store, never parsed or buffered.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));

  app.put('/agent/blob/:transferId', { config: open, schema: { ...agentSchema, summary: "An agent sends a file the console asked for (device's own account)" } }, async (req, reply) => {
    const length = req.headers['content-length'];
    await gate.agentWrite(basicCredentials(req.headers.authorization), req.params.transferId, req.query.token, req.raw, length === undefined ? undefined : Number(length));
    return reply.code(204).send();
  });

  app.get('/agent/blob/:transferId', { config: open, schema: { ...agentSchema, summary: "An agent fetches a file uploaded for it (device's own account)" } }, async (req, reply) => {
    const blob = await gate.agentRead(basicCredentials(req.headers.authorization), req.params.transferId, req.query.token);
    // Without a size (still arriving) the answer is chunked: its end says that all of it came.
    if (blob.size !== undefined) reply.header('content-length', blob.size);
    return reply.type('application/octet-stream').send(blob.stream);
  });

  app.get('/download/:transferId', { config: open, schema: { ...schema, summary: 'Download a file a device sent (the link request-download answered; once)' } }, async (req, reply) => {
    const blob = await gate.browserRead(req.params.transferId, req.query.token);
    reply.raw.once('close', () => void blob.done().catch((err) => req.log.warn({ err }, 'download: blob not removed (the sweep will)')));
    if (blob.size !== undefined) reply.header('content-length', blob.size);
    return reply
      .type('application/octet-stream')
      .header('content-disposition', attachment(blob.name))
      .header('cache-control', 'no-store')
      .send(blob.stream);
  });
};
