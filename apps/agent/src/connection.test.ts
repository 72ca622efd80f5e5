import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMqttClient, pemCa, type MqttClient } from './connection.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/** The agent's own MQTT transport (mqtt:// and mqtts:// without mqtt's other transports). */
describe.skipIf(!hasOpenssl)('agent MQTT connection', () => {
  let broker: Aedes;
  let plain: Server;
  let secure: Server;
  let dir: string;
  let cert: string;

  const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
  const outcome = (c: MqttClient) =>
    new Promise<string>((resolve) => {
      c.once('connect', () => resolve('connected'));
      c.once('error', (err) => resolve(`error: ${err.message}`));
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-agent-tls-'));
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ]);
    expect(made.status, made.stderr.toString()).toBe(0);
    cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    broker = await Aedes.createBroker();
    plain = createTcpServer(broker.handle);
    secure = createTlsServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, broker.handle);
  });

  afterAll(async () => {
    plain?.close();
    secure?.close();
    await new Promise<void>((r) => (broker ? broker.close(() => r()) : r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects over mqtt:// and mqtts:// with the server CA, refuses an unknown CA', async () => {
    const port = await listen(plain);
    const a = await createMqttClient(`mqtt://127.0.0.1:${port}`, { protocolVersion: 4, reconnectPeriod: 0, writeCache: false });
    expect(await outcome(a)).toBe('connected');
    await a.endAsync(true);

    const tlsPort = await listen(secure);
    // The trust store comes base64-encoded from the console, PEM or DER.
    const der = Buffer.from(cert.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    for (const ca of [pemCa(Buffer.from(cert).toString('base64')), pemCa(der.toString('base64'))]) {
      for (const host of ['127.0.0.1', 'localhost']) {
        const b = await createMqttClient(`mqtts://${host}:${tlsPort}`, { protocolVersion: 4, reconnectPeriod: 0, ca });
        expect(await outcome(b), host).toBe('connected');
        await b.endAsync(true);
      }
    }

    const c = await createMqttClient(`mqtts://127.0.0.1:${tlsPort}`, { protocolVersion: 4, reconnectPeriod: 0 });
    expect(await outcome(c)).toMatch(/error: .*self[- ]signed/i);
    await c.endAsync(true);
  });

  it('refuses URLs of transports the agent does not speak', async () => {
    await expect(createMqttClient('ws://127.0.0.1:1/mqtt', {})).rejects.toThrow(/use mqtt:\/\/ or mqtts:\/\//);
  });
});
