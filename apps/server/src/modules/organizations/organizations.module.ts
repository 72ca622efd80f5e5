import type { FastifyInstance } from 'fastify';
import type { ConsoleLocks } from '../../db/console-locks.js';
import type { Db } from '../../db/client.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { ConfigError, type Env } from '../../env.js';
import { createDnsLookup, type DnsLookup } from './domain-check.js';
import { DomainRepository } from './domain.repository.js';
import { DomainService } from './domain.service.js';
import { OrganizationRepository } from './organization.repository.js';
import type { OrganizationPolicy } from './organization.policy.js';
import { organizationRoutes } from './organization.routes.js';
import { OrganizationService } from './organization.service.js';

interface OrganizationsModuleOptions {
  db: Db;
  locks: ConsoleLocks;
  env: Pick<Env, 'TUNNEL_PROXY_HOST' | 'DNS_SERVERS' | 'DOMAIN_CHECK_INTERVAL'>;
  policy: OrganizationPolicy;
  audit: AuditTrail;
  invoices: Pick<InvoicesService, 'listFor'>;
  /** The built-in provider's people: a member without an account can be invited (issue 72). */
  people?: ConstructorParameters<typeof OrganizationService>[5];
  lookup?: DnsLookup;
}

/**
 * Composes the organizations feature: services, routes, and the periodic custom-domain check, which
 * starts with the server and stops when it closes.
 */
export async function registerOrganizations(api: FastifyInstance, opts: OrganizationsModuleOptions) {
  const domains = new DomainService(
    new DomainRepository(opts.db),
    opts.policy,
    opts.lookup ?? dnsLookupFor(opts.env.DNS_SERVERS),
    opts.env.TUNNEL_PROXY_HOST,
    opts.audit,
  );
  const organizations = new OrganizationService(new OrganizationRepository(opts.db), opts.policy, domains, opts.audit, opts.invoices, opts.people);
  await api.register(organizationRoutes, { organizations, domains });
  // A domain whose record appears later becomes ACTIVE, one whose record goes becomes FAILED.
  const monitor = new PeriodicTask({
    name: 'custom domain check',
    everyMs: opts.env.DOMAIN_CHECK_INTERVAL * 1000,
    locks: opts.locks,
    work: () => domains.checkDue(opts.env.DOMAIN_CHECK_INTERVAL * 1000).then(() => undefined),
    log: api.log,
  });
  api.addHook('onReady', async () => void monitor.start());
  api.addHook('onClose', () => monitor.stop());
  return { organizations, domains, monitor };
}

/** node's resolver rejects malformed server addresses; say so as a configuration error, in one line. */
function dnsLookupFor(servers: string[]): DnsLookup {
  try {
    return createDnsLookup(servers);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: DNS_SERVERS: ${(err as Error).message}`);
  }
}
