import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { logRedaction } from '@fleetlink/contract/log-redaction';
import { keepShortLivedBuffersYoung } from '@fleetlink/contract/young-buffers';
import pino from 'pino';
import { parseProxyConfig, type ProxyConfig } from './config.js';
import { ConsoleRefusal } from './console-client.js';
import { generateHostKey, publicHostKey } from './host-key.js';
import { ProxyStartError, startProxy } from './proxy.js';
import { ProxyMetrics } from './proxy-metrics.js';
import { startMetricsListener } from '@fleetlink/contract/metrics-listener';

/**
 * `npx fleetlink-proxy` (or `npm run proxy`): a tunnel proxy on its own machine, configured by its
 * environment (see config.ts and the README). Whatever stops it at start is one line saying what
 * to change.
 */
async function main(): Promise<void> {
  keepShortLivedBuffersYoung();
  const config = parseProxyConfig(process.env);
  const log = pino({ level: config.LOG_LEVEL, name: 'fleetlink-proxy', redact: logRedaction });
  const hostKey = loadHostKey(config.PROXY_HOST_KEY_FILE);
  const tls = config.PROXY_TLS_CERT_FILE ? { cert: readConfigFile(config.PROXY_TLS_CERT_FILE, 'PROXY_TLS_CERT_FILE'), key: readConfigFile(config.PROXY_TLS_KEY_FILE!, 'PROXY_TLS_KEY_FILE') } : undefined;
  const httpPort = config.PROXY_HTTP_PORT ?? (tls ? 8443 : 8080);
  const metrics = config.PROXY_METRICS_PORT ? new ProxyMetrics() : undefined;
  const running = await startProxy({
    consoleUrl: config.FLEETLINK_CONSOLE_URL,
    serverId: config.PROXY_SERVER_ID,
    password: config.PROXY_PASSWORD,
    hostKey,
    ssh: { host: config.PROXY_SSH_HOST, port: config.PROXY_SSH_PORT },
    http: { host: config.PROXY_HTTP_HOST, port: httpPort },
    tcp: { host: config.PROXY_TCP_HOST, ports: config.PROXY_TCP_PORTS, maxPerDevice: config.PROXY_TCP_MAX_PER_DEVICE },
    domain: config.PROXY_DOMAIN,
    tls,
    log,
    metrics,
  }).catch((err: unknown) => {
    throw new Error(startProblem(err, config));
  });
  const { from, to } = config.PROXY_TCP_PORTS;
  process.stdout.write(
    `fleetlink-proxy: SSH on ${config.PROXY_SSH_HOST}:${running.sshPort} (host key ${publicHostKey(hostKey)}), ` +
      `HTTP tunnels at ${tls ? 'https' : 'http'}://{path}.${config.PROXY_DOMAIN}:${running.httpPort}, TCP tunnels at ${config.PROXY_DOMAIN}:${from}-${to}\n`,
  );
  const listener =
    metrics &&
    (await startMetricsListener({
      host: config.PROXY_METRICS_HOST,
      port: config.PROXY_METRICS_PORT!,
      token: config.PROXY_METRICS_TOKEN,
      text: () => metrics.text(),
      contentType: metrics.registry.contentType,
    }).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`The metrics listener cannot start on ${config.PROXY_METRICS_HOST}:${config.PROXY_METRICS_PORT} (${err.code ?? err.message}): set PROXY_METRICS_PORT to a free port.`);
    }));
  if (listener) process.stdout.write(`fleetlink-proxy: metrics at http://${config.PROXY_METRICS_HOST}:${listener.address.port}/metrics\n`);
  const stop = () => void Promise.all([running.close(), listener?.close()]).then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The host key file, made on the first start (readable by this user only). */
function loadHostKey(file: string): string {
  if (!existsSync(file)) {
    const { privateKey, publicKey } = generateHostKey();
    writeFileSync(file, privateKey, { mode: 0o600 });
    process.stdout.write(`fleetlink-proxy: made a host key in ${file}; register its public half as the PROXY server's host key: ${publicKey}\n`);
  }
  const key = readConfigFile(file, 'PROXY_HOST_KEY_FILE').toString('utf8');
  publicHostKey(key); // unreadable: said now, not at the first device's sign-in
  return key;
}

function readConfigFile(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Why the proxy did not start, in one line naming what to change. */
function startProblem(err: unknown, config: ProxyConfig): string {
  if (err instanceof ProxyStartError) {
    const variable = err.part === 'ssh' ? 'PROXY_SSH_PORT' : 'PROXY_HTTP_PORT';
    return `${err.message.replace(/\.$/, '')}: set ${variable} to a free port.`;
  }
  if (err instanceof ConsoleRefusal) {
    return `The console at ${config.FLEETLINK_CONSOLE_URL} refused this proxy: ${err.message} Check PROXY_SERVER_ID and PROXY_PASSWORD against the PROXY server registered there.`;
  }
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `Cannot reach the console at ${config.FLEETLINK_CONSOLE_URL} (FLEETLINK_CONSOLE_URL): ${cause?.code ?? cause?.message ?? (err as Error).message}.`;
}

main().catch((err: Error) => {
  process.stderr.write(`fleetlink-proxy: ${err.message}\n`);
  process.exit(1);
});
