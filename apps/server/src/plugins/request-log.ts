import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { requestForLog } from '../lib/log-serializers.js';

/**
 * One log line per request, once it is answered: the request (as requestForLog writes it), its
 * status and how long it took. Fastify's own writes two lines a request ("incoming request", then
 * "request completed" without the request); at a few thousand requests a second they were a good
 * part of the console's time (issue 69).
 */
export class OneLinePerRequest extends LogController {
  private plain?: FastifyBaseLogger;

  /**
   * The line of a request that went well holds nothing but the fields below (the URL's secrets
   * already replaced by requestForLog): it is written without the log's redaction, which costs
   * more than the rest of the line (it walks every object of a line for 66 secret keys).
   */
  writeTo(log: FastifyBaseLogger): void {
    this.plain = log.child({}, { redact: { paths: [] } });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = { reqId: request.id, req: requestForLog(request), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else (this.plain ?? reply.log).info(fields, 'request completed');
  }
}
