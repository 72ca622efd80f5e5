import type { FastifyBaseLogger } from 'fastify';
import type { DomainService } from './domain.service.js';

/**
 * Re-checks custom domains' CNAME records every interval, so a domain whose record appears later
 * becomes ACTIVE, and one whose record is removed becomes FAILED. One round at a time; close() waits
 * for the running round so nothing writes to a closed database.
 */
export class DomainMonitor {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly domains: DomainService,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): this {
    this.timer ??= setInterval(() => void this.runOnce(), this.intervalMs).unref();
    return this;
  }

  runOnce(): Promise<void> {
    this.running ??= this.domains
      .checkDue(this.intervalMs)
      .then(() => undefined)
      .catch((err) => this.log.warn({ err }, 'custom domain check failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
