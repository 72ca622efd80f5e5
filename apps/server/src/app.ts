import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, LEGACY_SILENT_CHECK_PATH, SILENT_CHECK_PATH, type PublicConfig } from '@fleetlink/contract';
import { cutSlowRequests, SLOW_BODY_MESSAGE, slowHeaderOptions } from '@fleetlink/contract/slow-requests';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { discoveryUrlOf, type TokenVerifier } from './auth/token-verifier.js';
import type { Database } from './db/client.js';
import type { Env } from './env.js';
import { loggerOptions } from './lib/logger.js';
import { createMailer } from './lib/mailer.js';
import type { SecretBox } from './lib/secret-box.js';
import type { AccountStore } from './idp/accounts.js';
import { idpPlugin } from './idp/idp.plugin.js';
import type { SignInLimits } from './idp/sign-in-limits.js';
import type { Messaging } from './modules/broker/messaging.js';
import { SharedRateLimits } from './modules/system/shared-rate-limits.js';
import { PeriodicTask } from './lib/periodic-task.js';
import { AuditExportsRepository } from './modules/audit/audit-exports.repository.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { AuditTrail } from './modules/audit/audit-trail.js';
import { registerContact } from './modules/contact/contact.module.js';
import { messagingRoutes } from './modules/broker/messaging.routes.js';
import { devicesModule } from './modules/devices/index.js';
import { InvoicesRepository } from './modules/invoices/invoices.repository.js';
import { invoicesRoutes } from './modules/invoices/invoices.routes.js';
import { InvoicesService } from './modules/invoices/invoices.service.js';
import { sellerOf } from './modules/invoices/seller.js';
import { MembershipRepository } from './modules/organizations/membership.repository.js';
import { OrganizationPolicy } from './modules/organizations/organization.policy.js';
import { registerOrganizations } from './modules/organizations/organizations.module.js';
import { systemRoutes } from './modules/system/system.routes.js';
import type { ConsoleMetrics } from './modules/system/console-metrics.js';
import { ServersRepository } from './modules/servers/servers.repository.js';
import { LiveBus } from './modules/live/live-bus.js';
import { registerLive } from './modules/live/live.routes.js';
import { WebSocketUpgrades } from './lib/websocket-upgrades.js';
import { loopbackUrl } from './lib/loopback-url.js';
import { TerminalService } from './modules/terminal/terminal.service.js';
import { TerminalSessionsRepository } from './modules/terminal/terminal-sessions.repository.js';
import { registerTerminal } from './modules/terminal/terminal.routes.js';
import { liveAfterAction } from './modules/live/live-actions.js';
import { SyslogForwarder } from './modules/audit/syslog-forwarder.js';
import { alertsModule } from './modules/alerts/alerts.module.js';
import { JobRunner } from './modules/jobs/job-runner.js';
import { JobsRepository } from './modules/jobs/jobs.repository.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { JobsService } from './modules/jobs/jobs.service.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { bearerAuthenticator, registerAuth } from './plugins/auth.js';
import { accountsModule } from './modules/accounts/accounts.module.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { ApiTokenAuth } from './modules/api-tokens/api-token-auth.js';
import { ApiTokensRepository } from './modules/api-tokens/api-tokens.repository.js';
import { apiTokenRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { inlineScriptSourcesOf } from './plugins/inline-scripts.js';
import { cacheControlFor, isIndexPage } from './plugins/static-caching.js';
import { headersToDropFor } from './plugins/asset-headers.js';
import { hasSessionHint, preloadLinksFor, preloadPlanOf } from './plugins/console-preload.js';
import { registerCompression } from './plugins/compression.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { OneLinePerRequest } from './plugins/request-log.js';
import { dropUnusedConnectionsOnClose } from './plugins/unused-connections.js';
import { registerControlCharacterCheck } from './plugins/control-characters.js';
import { body, registerErrorHandling } from './plugins/errors.js';
import { registerOpenApi } from './plugins/openapi.js';

export interface AppDeps {
  env: Env;
  database: Database;
  /** Seals and opens the secrets kept in the database. */
  box: SecretBox;
  verifier: TokenVerifier;
  publicConfig: PublicConfig;
  /** The built-in identity provider, when no external issuer is configured. */
  idp?: { provider: Provider; accounts: AccountStore; limits: SignInLimits };
  /** Folder of the built SPA; the console serves it when present. */
  webDist?: string;
  /** Message hub, broker and the services on them (servers, enrollment, metrics). */
  messaging?: Messaging;
  /** The console's Prometheus metrics (issue 67): every answer is counted there. */
  metrics?: ConsoleMetrics;
}

/** The MESSAGE servers registered, and how many of them this console's hub is connected to (readiness). */
async function messageServersReached(messaging: Messaging, servers: ServersRepository): Promise<{ connected: number; total: number }> {
  const message = (await servers.liveness()).filter((s) => s.type === 'MESSAGE');
  return { connected: message.filter((s) => messaging.hub.isConnected(s.id) === true).length, total: message.length };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { env, database } = deps;
  const requestLog = new OneLinePerRequest();
  const app = Fastify({
    logger: loggerOptions(env.LOG_LEVEL),
    logController: requestLog,
    // Forwarded headers count only from the proxies the operator named (TRUST_PROXY), never a client's own.
    trustProxy: env.TRUST_PROXY.length ? env.TRUST_PROXY : false,
    bodyLimit: 1024 * 1024,
    // Headers within 15 s, checked every second; bodies at a minimum rate (cutSlowRequests below).
    http: slowHeaderOptions(),
  });
  requestLog.writeTo(app.log);
  cutSlowRequests(app.server, (res) => {
    const body = JSON.stringify({ code: ErrorCode.RequestTimeout, message: SLOW_BODY_MESSAGE });
    res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  // The API takes JSON (and multipart where a file is uploaded): a text body would reach the schemas
  // as a string and fail with a message about types, where 415 can say what to send.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerControlCharacterCheck(app);
  registerCompression(app);
  dropUnusedConnectionsOnClose(app);

  const issuerOrigin = new URL(deps.publicConfig.oidc.authority).origin;
  const spa = deps.webDist && existsSync(deps.webDist) ? deps.webDist : undefined;
  registerSecurityHeaders(app, {
    // HSTS is sent by the hook below, and only on https: over http a browser must ignore it anyway,
    // and a console reached over plain http (the embedded default) has no business announcing it.
    strictTransportSecurity: false,
    contentSecurityPolicy: {
      directives: {
        'connect-src': ["'self'", issuerOrigin],
        'frame-src': ["'self'", issuerOrigin],
        'img-src': ["'self'", 'data:'],
        // The silent check page's one inline script, by its hash (inline-scripts.ts).
        'script-src': ["'self'", ...inlineScriptSourcesOf(spa && path.join(spa, SILENT_CHECK_PATH))],
        // Over plain http (the embedded default) the upgrade would send the silent-SSO iframe to https.
        'upgrade-insecure-requests': env.PUBLIC_URL.startsWith('https:') ? [] : null,
      },
    },
  });

  app.addHook('onRequest', async (req, reply) => {
    // The provider's Koa app reads the raw forwarded headers itself: give it what fastify decided,
    // so an untrusted client's X-Forwarded-Host cannot rename the issuer in the discovery document.
    const raw = req.raw.headers;
    if (raw['x-forwarded-for'] || raw['x-forwarded-host'] || raw['x-forwarded-proto']) {
      raw['x-forwarded-for'] = req.ip;
      raw['x-forwarded-host'] = req.host;
      raw['x-forwarded-proto'] = req.protocol;
    }
    // On the raw response, like helmet's own headers, so the provider's hijacked answers carry it too.
    if (req.protocol === 'https') reply.raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });

  const { metrics } = deps;
  if (metrics) {
    // By the route's pattern, not its URL: one series per route, whatever ids the URLs hold.
    app.addHook('onResponse', async (req, reply) => {
      metrics.httpAnswered(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }

  await registerOpenApi(app, { publicUrl: env.PUBLIC_URL });

  // Live updates (issue 61): the messaging part's bus when there is one, so device traffic reaches the pages.
  const live = deps.messaging?.live ?? new LiveBus({ db: database.db, notices: database.notices, log: app.log });
  const auditRepository = new AuditRepository(database.db);
  const audit = new AuditTrail(auditRepository, app.log, liveAfterAction(live));
  // Limits count in the database, so they hold across consoles; ended windows are purged hourly.
  const rateLimits = new SharedRateLimits(database.db);
  // The built-in provider's people (issue 72): an ADMIN manages them; a disabled or deleted one's tokens stop at once.
  // One mailer (SMTP_URL) for every mail the console sends: invitations, alerts, the contact form.
  const mail = createMailer(env);
  if (mail) app.addHook('onClose', () => mail.close());
  const people = deps.idp && accountsModule({ env, database, box: deps.box, mail, audit, rateLimits, log: app.log });
  if (deps.idp && people) await app.register(idpPlugin, { ...deps.idp, audit, passwordLinks: people.service, twoFactor: people.twoFactor, publicHost: new URL(env.PUBLIC_URL).host, consoleUrl: env.PUBLIC_URL });

  const rateLimitPurge = new PeriodicTask({ name: 'rate limit purge', everyMs: 3600_000, locks: database.locks, work: () => rateLimits.purge(), log: app.log });
  app.addHook('onReady', async () => void rateLimitPurge.start());
  app.addHook('onClose', () => rateLimitPurge.stop());

  const memberships = new MembershipRepository(database.db);
  const policy = new OrganizationPolicy(memberships);
  // Personal API tokens (issue 62): checked in the database at every use, so a revocation holds on every console.
  const apiTokensRepository = new ApiTokensRepository(database.db);
  const apiTokens = new ApiTokenAuth({
    repo: apiTokensRepository,
    audit,
    ownerDays: env.API_TOKEN_OWNER_DAYS,
    perMinute: env.API_TOKEN_RATE_LIMIT,
    hit: (key, windowMs) => rateLimits.hit(key, windowMs),
    log: app.log,
  });
  const authenticate = bearerAuthenticator({ verifier: deps.verifier, apiTokens, standing: people?.standing });
  const upgrades = new WebSocketUpgrades(app.server);
  registerLive(app, upgrades, {
    authenticate,
    organizationsOf: async (member) => (await memberships.organizationsOf(member)).map((m) => m.organizationId),
    bus: live,
    origin: new URL(env.PUBLIC_URL).origin,
    onAccountsChanged: people && ((listener) => people.standing.onChange(listener)),
  });
  if (deps.messaging) {
    // The web terminal (issue 63): its sessions end when the live bus says their device went offline or was deleted.
    const terminal = new TerminalService({
      repo: new TerminalSessionsRepository(database.db),
      policy,
      audit,
      devices: deps.messaging.devices,
      hub: deps.messaging.hub,
      authenticate,
      peerUrl: () => env.CONSOLE_PEER_URL ?? loopbackUrl(app.server.address(), env.HOST),
      idleMinutes: env.TERMINAL_IDLE_MINUTES,
      maxSessions: env.TERMINAL_MAX_SESSIONS,
      log: app.log.child({ module: 'terminal' }),
    });
    live.attach(terminal);
    // A person disabled or deleted (issue 72): their open terminals end at once, on every console.
    const standing = people?.standing;
    standing?.onChange(() => void terminal.endInactive((subject) => standing.isActive(subject)));
    registerTerminal(app, upgrades, { service: terminal, credentials: deps.messaging.credentials, box: deps.box, origin: new URL(env.PUBLIC_URL).origin });
  }
  // Fleet jobs (issue 64): every console runs a runner; they share the work through the database.
  const jobsRepo = new JobsRepository(database.db);
  const jobRunner = deps.messaging
    ? new JobRunner({
        repo: jobsRepo,
        hub: deps.messaging.hub,
        audit,
        live,
        concurrency: env.JOB_CONCURRENCY,
        tickMs: env.JOB_TICK_MS,
        cronSeconds: env.JOB_CRON_SECONDS,
        log: app.log.child({ module: 'jobs' }),
      })
    : undefined;
  if (jobRunner) {
    live.attach(jobRunner);
    app.addHook('onReady', async () => void jobRunner.start());
    app.addHook('onClose', () => jobRunner.stop());
  }
  const jobs = new JobsService({ db: database.db, repo: jobsRepo, audit, live, wake: () => jobRunner?.wake(), cronSeconds: env.JOB_CRON_SECONDS });
  // Audit forwarding (issue 66): the trail to the operator's syslog collector, by one console at a time.
  if (env.AUDIT_SYSLOG_URL) {
    const forwarder = new SyslogForwarder({
      db: database.db,
      syslog: { url: env.AUDIT_SYSLOG_URL, caFile: env.AUDIT_SYSLOG_CA_FILE },
      hostname: new URL(env.PUBLIC_URL).hostname,
      backlogMax: env.AUDIT_SYSLOG_BACKLOG_MAX,
      log: app.log.child({ module: 'audit forwarding' }),
    });
    const forwarding = new PeriodicTask({ name: 'audit forwarding', everyMs: 1000, locks: database.locks, work: () => forwarder.round(), log: app.log });
    app.addHook('onReady', async () => void forwarding.start());
    app.addHook('onClose', async () => {
      await forwarding.stop();
      forwarder.close();
    });
  }
  // Alerts (issue 66): rules evaluated and webhooks sent by one console at a time.
  const alerts = alertsModule(app, { database, env, box: deps.box, mail, audit, policy, live });
  const users = new UsersService(new UsersRepository(database.db), memberships, {
    organizationGrants: env.OIDC_ORG_MAP,
    audit,
  });
  const { messaging } = deps;
  const serversRepo = new ServersRepository(database.db, deps.box);
  await app.register(
    async (api) => {
      registerAuth(api, { verifier: deps.verifier, apiTokens, standing: people?.standing, onAuthenticated: (p) => users.seen(p) });
      if (people) await api.register(accountsRoutes, { service: people.service, twoFactor: people.twoFactor });
      const apiTokenService = new ApiTokensService(apiTokensRepository, memberships, audit, { noExpiryAllowed: env.API_TOKEN_ALLOW_NO_EXPIRY });
      await api.register(apiTokenRoutes, { service: apiTokenService });
      await api.register(systemRoutes, {
        publicConfig: deps.publicConfig,
        checkDatabase: async () => void (await database.db.execute(sql`select 1`)),
        messageServers: messaging && (() => messageServersReached(messaging, serversRepo)),
      });
      // Feature modules: each gets the database and the one policy that decides access.
      const devices = devicesModule(database.db, deps.box, policy, audit, env.TUNNEL_DOMAIN, deps.messaging?.accounts);
      await api.register(devices.routes, { service: devices.service });
      const invoices = new InvoicesService(new InvoicesRepository(database.db), policy, audit, sellerOf(env));
      await registerOrganizations(api, { db: database.db, locks: database.locks, env, policy, audit, invoices, people: people?.service });
      await api.register(invoicesRoutes, { service: invoices });
      await registerContact(api, { db: database.db, box: deps.box, env, mail, rateLimitStore: rateLimits.store('contact') });
      await api.register(auditRoutes, { service: new AuditService(auditRepository, new AuditExportsRepository(database.db), policy) });
      await api.register(jobsRoutes, { service: jobs });
      await alerts.register(api);
      if (deps.messaging) await api.register(messagingRoutes, { messaging: deps.messaging, policy, rateLimitStore: rateLimits.store('enroll'), metrics: deps.metrics });
    },
    { prefix: '/api' },
  );

  // The bootstrap's first questions: the console's configuration (index.html names it too, for the
  // development server) and the provider's discovery document, the sign-in's first step.
  const firstQuestions = ['/api/config', discoveryUrlOf(deps.publicConfig.oidc.authority)].map((url) => `<${url}>; rel=preload; as=fetch; crossorigin=anonymous`);
  const preloadPlan = spa ? preloadPlanOf(spa) : undefined;
  if (spa) {
    await app.register(fastifyStatic, {
      root: spa,
      wildcard: true,
      // The build wrote a .br and a .gz beside each text file: sent as they are, never compressed per request.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', cacheControlFor(path));
        // helmet's headers are on the raw response already, the static files' own on the reply.
        for (const name of headersToDropFor(path)) {
          reply.removeHeader(name);
          reply.raw.removeHeader(name);
        }
        // The page's first questions, asked while its script loads, ahead of everything else the
        // page's six connections carry. To a browser someone was signed in with, the console's code
        // and the page's too: the bootstrap would ask for them only once it has run, and on a
        // phone's network they are the longest downloads (issue 68). A signed-out visitor downloads
        // nothing of the console.
        if (isIndexPage(path) && preloadPlan) {
          const pathname = reply.request.url.split('?')[0] ?? '/';
          const signedInBefore = hasSessionHint(reply.request.headers.cookie);
          reply.header('link', preloadLinksFor(preloadPlan, pathname, signedInBefore, firstQuestions).join(', '));
          reply.header('vary', [reply.getHeader('vary'), 'Cookie'].filter(Boolean).join(', '));
        }
      },
    });
    // The silent check page moved to the assets folder (SPEC §9); a provider or a page still sending
    // the iframe to its old place at the root gets the same page, query string and all.
    app.get(LEGACY_SILENT_CHECK_PATH, { config: { public: true } }, (_req, reply) =>
      reply.type('text/html').sendFile(SILENT_CHECK_PATH.slice(1)),
    );
  }

  // Nothing here is for search engines: every page needs a sign-in, and the API's links are one-time.
  app.get('/robots.txt', (_req, reply) => reply.type('text/plain; charset=utf-8').send('User-agent: *\nDisallow: /\n'));

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // The API and the provider answer JSON, never the SPA's page: a client would read HTML as an answer.
    const served = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
    if (served('/api') || served('/idp') || !spa || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.code(404).send(body(ErrorCode.NotFound, `There is no ${req.method} ${path} here.`));
    }
    // Client-side routes: the SPA decides what to show (including its own 'not found' page).
    return reply.type('text/html').sendFile('index.html');
  });

  return app;
}
