import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, once it is answered: the request (as requestForLog writes it), its
 * status and how long it took. Fastify's own writes two lines a request ("incoming request", then
 * "request completed" without the request); at a few thousand requests a second the first is a
 * good part of the console's time and says nothing the last cannot (issue 69).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
