import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { createTokenVerifier } from './auth/token-verifier.js';
import { openDatabase, type Database } from './db/client.js';
import { audienceOf, ConfigError, issuerOf, listensOnLoopbackOnly, roleMappingOf, usesBuiltInIdp, type Env } from './env.js';
import { AccountStore, type SeededPassword } from './idp/accounts.js';
import { keepPasswords } from './idp/kept-passwords.js';
import { purgeExpired } from './idp/adapter.js';
import { createProvider } from './idp/provider.js';
import { SignInLimits } from './idp/sign-in-limits.js';
import { startMessaging, type Messaging } from './modules/broker/messaging.js';
import { ServersRepository } from './modules/servers/servers.repository.js';
import { startEmbeddedProxy } from './modules/tunnels/embedded-proxy.js';
import type { RunningProxy } from '@fleetlink/proxy';
import pino from 'pino';
import { PeriodicTask } from './lib/periodic-task.js';
import { loggerOptions } from './lib/logger.js';
import type { SecretBox } from './lib/secret-box.js';
import { loadSecretKey } from './modules/system/secret-key.js';
import { keepDataDirPrivate } from './modules/system/private-data-dir.js';
import { removeConsoleAddress, writeConsoleAddress } from './modules/system/console-address.js';
import { openSecretsAtRest } from './modules/system/secrets-at-rest.js';
import { loadOrCreateSecrets, publicJwks } from './idp/secrets.js';
import { ConsoleMetrics } from './modules/system/console-metrics.js';
import { startMetricsListener, type MetricsListener } from '@fleetlink/contract/metrics-listener';

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface RunningConsole {
  url: string;
  app: FastifyInstance;
  database: Database;
  /** Opens the secrets sealed in the database. */
  box: SecretBox;
  /** Broker, message hub and the services on them. */
  messaging?: Messaging;
  /** The built-in tunnel proxy, unless TUNNEL_SSH_PORT is 0. */
  proxy?: { running: RunningProxy; serverId: string };
  /** The built-in provider's seeded accounts and where their passwords come from, for the start banner. */
  seededPasswords?: SeededPassword[];
  /** The console's Prometheus metrics, and the listener serving them when METRICS_PORT is set. */
  metrics: ConsoleMetrics;
  metricsListener?: MetricsListener;
  close(): Promise<void>;
}

/** Composition root: opens every part the configuration selects, then listens. */
export async function startConsole(env: Env, opts: { webDist?: string } = {}): Promise<RunningConsole> {
  // An older console (or PGlite, whatever the umask) left files other users could read: say so once.
  const widened = keepDataDirPrivate(env.DATA_DIR);
  if (widened > 0) {
    pino(loggerOptions(env.LOG_LEVEL, 'data')).warn(
      { dataDir: env.DATA_DIR, entries: widened },
      'DATA_DIR held files and folders other users of this machine could read or change; they are now private to this user (0600 and 0700)',
    );
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, log: pino(loggerOptions(env.LOG_LEVEL, 'database')) });
  keepDataDirPrivate(env.DATA_DIR);
  let box: SecretBox;
  try {
    box = await openSecretsAtRest(database.db, loadSecretKey(env));
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  const tasks: PeriodicTask[] = [];
  let messaging: Messaging | undefined;
  let app: FastifyInstance | undefined;
  let proxy: { running: RunningProxy; serverId: string } | undefined;
  let seededPasswords: SeededPassword[] | undefined;
  let metricsListener: MetricsListener | undefined;
  const metrics = new ConsoleMetrics();
  try {
    const issuer = issuerOf(env);
    let idp;
    let localJwks;
    if (usesBuiltInIdp(env)) {
      const accounts = new AccountStore(database.db);
      seededPasswords = await accounts.seed({ exposed: !listensOnLoopbackOnly(env), given: env });
      const generated = seededPasswords.flatMap((p) => (p.source === 'generated' ? [p] : []));
      if (generated.length) keepPasswords(env.DATA_DIR, generated);
      const secrets = await loadOrCreateSecrets(database.db, box);
      const limits = new SignInLimits(database.db, {
        accountFreeFailures: env.SIGN_IN_LIMIT_ACCOUNT,
        addressFreeFailures: env.SIGN_IN_LIMIT_ADDRESS,
        maxDelaySeconds: env.SIGN_IN_MAX_DELAY,
      });
      idp = { provider: createProvider({ env, db: database.db, box, accounts, secrets }), accounts, limits };
      localJwks = publicJwks(secrets);
      tasks.push(
        new PeriodicTask({
          name: 'sign-in records purge',
          everyMs: 15 * 60_000,
          locks: database.locks,
          work: async () => void (await Promise.all([purgeExpired(database.db), limits.purgeForgotten()])),
          log: pino(loggerOptions(env.LOG_LEVEL, 'idp')),
        }).start(),
      );
    }
    const roleMapping = roleMappingOf(env);
    const verifier = await createTokenVerifier({
      issuer,
      audience: audienceOf(env),
      clientId: env.OIDC_CLIENT_ID,
      roleMapping,
      groupClaim: env.OIDC_ROLE_CLAIM,
      localJwks,
    });
    messaging = await startMessaging({ env, database, box, log: pino(loggerOptions(env.LOG_LEVEL, 'messaging')) });
    metrics.watch({ database, hub: messaging.hub, servers: new ServersRepository(database.db, box) });
    app = await buildApp({
      env,
      database,
      box,
      verifier,
      idp,
      webDist: opts.webDist ?? DEFAULT_WEB_DIST,
      publicConfig: {
        oidc: { authority: issuer, clientId: env.OIDC_CLIENT_ID, scope: env.OIDC_SCOPE },
        uploadMaxBytes: env.UPLOAD_MAX_BYTES,
        roleMapping,
        accounts: !!idp,
      },
      messaging,
      metrics,
    });
    await app.listen({ port: env.PORT, host: env.HOST });
    if (env.METRICS_PORT) {
      const at = { host: env.METRICS_HOST, port: env.METRICS_PORT };
      metricsListener = await startMetricsListener({ ...at, token: env.METRICS_TOKEN, text: () => metrics.text(), contentType: metrics.registry.contentType }).catch(
        (err: NodeJS.ErrnoException) => {
          const why = err.code === 'EADDRINUSE' ? `port ${at.port} (METRICS_PORT) is already in use on ${at.host}` : `${at.host}:${at.port} (METRICS_HOST, METRICS_PORT): ${err.code ?? err.message}`;
          throw new ConfigError(`The metrics listener cannot start: ${why}; set METRICS_PORT to a free port, or unset it to serve no metrics.`);
        },
      );
    }
    // After the console listens: the proxy signs in to its API as any proxy does.
    if (env.TUNNEL_SSH_PORT) {
      proxy = await startEmbeddedProxy({ db: database.db, box, env, servers: new ServersRepository(database.db, box), log: pino(loggerOptions(env.LOG_LEVEL, 'proxy')) });
    }
    const listening = app;
    writeConsoleAddress(env.DATA_DIR, env.PUBLIC_URL);
    return {
      url: env.PUBLIC_URL,
      app: listening,
      database,
      box,
      messaging,
      proxy,
      seededPasswords,
      metrics,
      metricsListener,
      async close() {
        removeConsoleAddress(env.DATA_DIR);
        await Promise.all(tasks.map((t) => t.stop()));
        await metricsListener?.close();
        await proxy?.running.close();
        await listening.close();
        await messaging?.stop();
        await database.close();
      },
    };
  } catch (err) {
    await Promise.all(tasks.map((t) => t.stop()));
    await metricsListener?.close();
    await app?.close().catch(() => {});
    await messaging?.stop().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}
