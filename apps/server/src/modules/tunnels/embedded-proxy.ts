import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { generateHostKey, ProxyStartError, publicHostKey, startProxy, type ProxyLog, type RunningProxy } from '@fleetlink/proxy';
import type { Db } from '../../db/client.js';
import { brokerSettings } from '../../db/schema/index.js';
import { ConfigError, type Env } from '../../env.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { loadOrCreateSetting } from '../system/console-secrets.js';
import type { ServersRepository } from '../servers/servers.repository.js';

const EMBEDDED_PROXY = 'embeddedProxyServerId';

type ProxyEnv = Pick<
  Env,
  | 'PORT'
  | 'HOST'
  | 'TUNNEL_SSH_HOST'
  | 'TUNNEL_SSH_PORT'
  | 'TUNNEL_HTTP_HOST'
  | 'TUNNEL_HTTP_PORT'
  | 'TUNNEL_TCP_HOST'
  | 'TUNNEL_TCP_PORTS'
  | 'TUNNEL_TCP_MAX_PER_DEVICE'
  | 'TUNNEL_DOMAIN'
  | 'TUNNEL_TLS_CERT_FILE'
  | 'TUNNEL_TLS_KEY_FILE'
>;

/** A file the configuration names, or a configuration error naming the variable (read at start: said now, not at the first HTTPS request). */
function readConfigFile(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/**
 * Starts the built-in tunnel proxy beside the console (it talks to the console's proxy API over
 * loopback, as a standalone one would over the network) and, on the first start, registers it as
 * the default PROXY server with the public half of its host key, made once and kept in the database.
 */
export async function startEmbeddedProxy(o: { db: Db; box: SecretBox; env: ProxyEnv; servers: ServersRepository; log: ProxyLog }): Promise<{ running: RunningProxy; serverId: string }> {
  const { env } = o;
  const secrets = await loadOrCreateSetting(o.db, o.box, 'embeddedProxy', () => ({
    password: randomBytes(24).toString('base64url'),
    hostKey: generateHostKey().privateKey,
  }));
  // What the registration holds that is the console's own: where it listens, its account and key.
  const own = { url: `ssh://${env.TUNNEL_SSH_HOST}:${env.TUNNEL_SSH_PORT}`, username: 'fleetlink-proxy', password: secrets.password, hostKey: publicHostKey(secrets.hostKey), builtIn: true };
  const [found] = await o.db.select().from(brokerSettings).where(eq(brokerSettings.name, EMBEDDED_PROXY));
  let serverId = found?.value as string | undefined;
  // Registered on the first start; an administrator who removed the registration gets it back.
  if (!serverId || !(await o.servers.findById(serverId))) {
    serverId = await o.servers.insert({ type: 'PROXY', notes: 'Built-in tunnel proxy, started with the console.', status: 'ONLINE', ...own });
    await o.db.insert(brokerSettings).values({ name: EMBEDDED_PROXY, value: serverId }).onConflictDoUpdate({ target: brokerSettings.name, set: { value: serverId } });
  } else {
    // Started on another address than last time, agents are sent where it listens now; and an older
    // console let an administrator edit this registration: its account and key are its own again.
    await o.servers.update(serverId, own);
  }
  const tls = env.TUNNEL_TLS_CERT_FILE
    ? { cert: readConfigFile(env.TUNNEL_TLS_CERT_FILE, 'TUNNEL_TLS_CERT_FILE'), key: readConfigFile(env.TUNNEL_TLS_KEY_FILE!, 'TUNNEL_TLS_KEY_FILE') }
    : undefined;
  const loopback = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
  try {
    const running = await startProxy({
      consoleUrl: `http://${loopback}:${env.PORT}`,
      serverId,
      password: secrets.password,
      hostKey: secrets.hostKey,
      ssh: { host: env.TUNNEL_SSH_HOST, port: env.TUNNEL_SSH_PORT },
      http: { host: env.TUNNEL_HTTP_HOST, port: env.TUNNEL_HTTP_PORT },
      tcp: { host: env.TUNNEL_TCP_HOST, ports: env.TUNNEL_TCP_PORTS, maxPerDevice: env.TUNNEL_TCP_MAX_PER_DEVICE },
      domain: env.TUNNEL_DOMAIN,
      tls,
      log: o.log,
    });
    return { running, serverId };
  } catch (err) {
    if (err instanceof ProxyStartError) {
      const setting = err.part === 'ssh' ? 'TUNNEL_SSH_PORT' : 'TUNNEL_HTTP_PORT';
      throw new ConfigError(
        `The built-in tunnel proxy cannot start: ${err.reason.replace(`port ${err.at.port}`, `port ${err.at.port} (${setting})`)}; set ${setting} to a free port, or TUNNEL_SSH_PORT to 0 to run without the built-in tunnel proxy.`,
      );
    }
    throw err;
  }
}
