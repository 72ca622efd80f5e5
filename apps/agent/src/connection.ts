import { createConnection, isIP } from 'node:net';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
// The client class alone: mqtt's `connect()` loads every transport (WebSocket with http, https
// and zlib; SOCKS with its address parser) on each call. The agent speaks mqtt:// and mqtts:// only,
// and staying small is part of its job (issue 4: under 60 MB RSS).
import * as clientModule from 'mqtt/lib/client';
import type { IClientOptions, MqttClient } from 'mqtt';

export type { MqttClient };

// A CommonJS module with `exports.default`: Node's ESM interop (tsx, esbuild's Node mode) hands
// over the whole exports object as the default.
const Client = ((clientModule.default as unknown as { default?: unknown }).default ?? clientModule.default) as unknown as typeof MqttClient;

/** CA for mqtts:// URLs: PEM as is, DER wrapped. */
export function pemCa(b64: string | null | undefined): string | undefined {
  if (!b64) return undefined;
  const raw = Buffer.from(b64, 'base64');
  const text = raw.toString('utf8');
  if (text.includes('-----BEGIN')) return text;
  return `-----BEGIN CERTIFICATE-----\n${raw.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
}

/**
 * An MQTT 3.1.1 client for `mqtt://host:port` or `mqtts://host:port` (TLS verified against `ca`,
 * or the system's CAs without one). node:tls is loaded only for mqtts URLs.
 */
export async function createMqttClient(url: string, options: IClientOptions & { ca?: string }): Promise<MqttClient> {
  const u = new URL(url);
  const secure = u.protocol === 'mqtts:' || u.protocol === 'ssl:';
  if (!secure && u.protocol !== 'mqtt:' && u.protocol !== 'tcp:') throw new Error(`Unsupported message server URL ${url}: use mqtt:// or mqtts://.`);
  const host = u.hostname.replace(/^\[|\]$/g, '') || 'localhost';
  const port = Number(u.port || (secure ? 8883 : 1883));
  const tls = secure ? await import('node:tls') : undefined;
  const { ca, ...rest } = options;
  // Small request and reply packets, each waited on: no Nagle delay (up to 40 ms each with delayed ACKs).
  const stream = (client: MqttClient) => {
    if (!tls) return createConnection({ host, port, noDelay: true });
    const tlsOptions: ConnectionOptions = { host, port, ca, rejectUnauthorized: true, ...(isIP(host) ? {} : { servername: host }) };
    const socket: TLSSocket = tls.connect(tlsOptions);
    socket.setNoDelay(true);
    // Handshake failures (unknown CA, wrong name) are the client's errors, then a closed stream.
    const onError = (err: Error) => {
      client.emit('error', err);
      socket.end();
    };
    socket.on('error', onError);
    socket.once('secureConnect', () => socket.removeListener('error', onError));
    return socket;
  };
  const client = new Client(stream, { ...rest, host, port, protocol: secure ? 'mqtts' : 'mqtt' });
  // As mqtt's connect() does: a connection error with no listener must not end the process.
  client.on('error', () => {});
  return client;
}
