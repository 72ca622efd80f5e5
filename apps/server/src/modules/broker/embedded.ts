import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { ConfigError } from '../../env.js';
import { brokerSettings } from '../../db/schema/index.js';
import { EmbeddedBroker, type BrokerLog } from './embedded-broker.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { safeEqual, type DeviceCredentials } from '../enrollment/credentials.js';
import { loadOrCreateSetting } from '../system/console-secrets.js';
import type { ServersRepository } from '../servers/servers.repository.js';

const EMBEDDED_SERVER = 'embeddedServerId';

/**
 * Starts the built-in broker and, on the first start only, registers it as the default MESSAGE
 * server, built in (an administrator may change its capacity, status and notes, or remove it). The
 * console connects to it with its own account, which no one else can read.
 */
export async function startEmbeddedBroker(o: {
  db: Db;
  box: SecretBox;
  host: string;
  port: number;
  servers: ServersRepository;
  credentials: DeviceCredentials;
  log: BrokerLog;
  /** Device connections taken a second (MQTT_CONNECT_RATE). */
  connectPerSecond?: number;
}): Promise<{ broker: EmbeddedBroker; serverId: string }> {
  const account = await loadOrCreateSetting(o.db, o.box, 'embeddedConsoleAccount', () => ({
    username: 'fleetlink-console',
    password: randomBytes(24).toString('base64url'),
  }));
  let serverId: string | undefined;
  // The console's own account is made here and kept sealed: no person can read or set it (the
  // server answer holds no password and a built-in server's credentials cannot be edited), so
  // whatever runs on a device as the console goes through the console's API and its audit trail.
  const isConsole = (username: string, password: string) => username === account.username && safeEqual(password, account.password);
  const broker = new EmbeddedBroker({
    host: o.host,
    port: o.port,
    log: o.log,
    connectPerSecond: o.connectPerSecond,
    accounts: {
      consoleUsername: account.username,
      async authenticate(username, password) {
        const deviceId = await o.credentials.verify(username, password);
        // Only devices assigned here: one moved to another message server has nothing left here.
        if (deviceId) return !serverId || (await o.servers.assignments(deviceId)).some((s) => s.id === serverId) ? { kind: 'device', deviceId } : undefined;
        return isConsole(username, password) ? { kind: 'console' } : undefined;
      },
    },
  });
  try {
    await broker.start();
  } catch (err) {
    // Never run without it, nor next to whatever holds its port: the hub would connect to that
    // broker (perhaps another console's) and send this console's devices there.
    throw new ConfigError(cannotListen(err as NodeJS.ErrnoException, o.host, o.port));
  }
  // What the registration holds that is the console's own: its account.
  const own = { username: account.username, password: account.password, builtIn: true };
  const [found] = await o.db.select().from(brokerSettings).where(eq(brokerSettings.name, EMBEDDED_SERVER));
  if (found) {
    serverId = found.value as string;
    // An older console let an administrator edit this registration: the console's account is its own again.
    await o.servers.update(serverId, own);
  } else {
    serverId = await o.servers.insert({ type: 'MESSAGE', url: broker.url, notes: 'Built-in message server, started with the console.', status: 'ONLINE', ...own });
    await o.db.insert(brokerSettings).values({ name: EMBEDDED_SERVER, value: serverId });
  }
  return { broker, serverId };
}

function cannotListen(err: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${host}:${port}`;
  const fix = 'set MQTT_EMBEDDED_PORT to a free port, or to 0 to run without the built-in message server';
  if (err.code === 'EADDRINUSE') return `The built-in message server cannot start: port ${port} (MQTT_EMBEDDED_PORT) is already in use on ${host}; ${fix}.`;
  if (err.code === 'EACCES') return `The built-in message server cannot start: no permission to listen on ${where} (MQTT_EMBEDDED_PORT); ${fix}.`;
  return `The built-in message server cannot start on ${where} (MQTT_EMBEDDED_HOST, MQTT_EMBEDDED_PORT): ${err.message}.`;
}
