/**
 * Memory of a standalone proxy with many open tunnels (issue 30): `fleetlink-proxy` as its own
 * process against a console (this process, PGlite); DEVICES devices (default 20) with PER_DEVICE
 * tunnels each (50, the most a device may have: 1,000 in all) sign in over SSH as agents do (ssh2
 * clients in this process) and open every forward. Reported: the proxy's RSS idle, with every tunnel
 * open, and after a request through each HTTP one. Target: < 150 MB with 1,000 open tunnels.
 *
 *   npx tsx bench/tunnel-proxy-rss.ts
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import ssh2 from 'ssh2';
import { serverSchema } from '@fleetlink/contract';
import { ADMIN_EMAIL, enrollByHand, memberDevice, startAgentTestConsole, tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { hostKeyFile, startStandaloneProxy } from '../apps/server/src/modules/tunnels/standalone-proxy.test-support.js';
import { TunnelsRepository } from '../apps/server/src/modules/tunnels/tunnels.repository.js';
import { freePort } from '../apps/server/src/testing/test-console.js';

const DEVICES = Number(process.env.DEVICES ?? 20);
const PER_DEVICE = Number(process.env.PER_DEVICE ?? 50);

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// (Its built-in broker takes the devices' enrollment; it runs no proxy of its own.)
const tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '100000' });
const dir = tempDir('fleetlink-proxy-rss-');
const key = hostKeyFile(dir);
const ports = { ssh: await freePort(), http: await freePort() };
const token = await tc.token(ADMIN_EMAIL);
const registered = await tc.api('/api/server', {
  method: 'POST',
  token,
  json: { type: 'PROXY', url: `ssh://127.0.0.1:${ports.ssh}`, maxCapacity: 100000, status: 'ONLINE', password: 'bench-proxy', hostKey: key.publicKey },
});
const serverId = serverSchema.parse(await registered.json()).id;
const proxy = await startStandaloneProxy({
  ...{ FLEETLINK_CONSOLE_URL: tc.url, PROXY_SERVER_ID: serverId, PROXY_PASSWORD: 'bench-proxy', PROXY_HOST_KEY_FILE: key.file, PROXY_DOMAIN: 'localhost' },
  ...{ PROXY_SSH_HOST: '127.0.0.1', PROXY_SSH_PORT: String(ports.ssh), PROXY_HTTP_HOST: '127.0.0.1', PROXY_HTTP_PORT: String(ports.http) },
});
const pid = proxy.child.pid!;
const clients: ssh2.Client[] = [];
try {
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rssMb(pid);
  // The devices and their tunnels straight in the database: what is measured is the proxy.
  const repo = new TunnelsRepository(tc.database.db);
  const devices: { id: string; password: string; paths: string[] }[] = [];
  for (let d = 0; d < DEVICES; d++) {
    const device = await memberDevice(tc.database.db, `rss ${d}`);
    const { password } = await enrollByHand(tc, device);
    const paths: string[] = [];
    for (let t = 0; t < PER_DEVICE; t++) {
      const path = `d${d}-t${t}`;
      paths.push(path);
      await repo.insert(device.id, { name: path, type: 'HTTP', port: 10000 + t, mode: 'EPHEMERAL', domainId: null, path, host: 'localhost', securityIp: null, securityUsername: null, securityPasswordHash: null });
    }
    devices.push({ id: device.id, password, paths });
  }
  // A device's service: a small page, served by this process where the agent would connect.
  const service = http.createServer((_req, res) => res.end('hello'));
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', () => resolve()));
  const servicePort = (service.address() as { port: number }).port;
  const started = performance.now();
  for (const device of devices) {
    const client = new ssh2.Client();
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve()).once('error', reject);
      client.connect({ host: '127.0.0.1', port: ports.ssh, username: device.id, password: device.password });
    });
    client.on('tcp connection', (_info, accept) => {
      const channel = accept();
      const socket = net.connect(servicePort, '127.0.0.1');
      socket.on('error', () => channel.destroy());
      socket.pipe(channel).pipe(socket);
    });
    await Promise.all(
      Array.from({ length: PER_DEVICE }, (_, t) => new Promise<void>((resolve, reject) => client.forwardIn('localhost', 10000 + t, (err) => (err ? reject(err) : resolve())))),
    );
  }
  const openMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 2000));
  const open = rssMb(pid);
  const agent = new http.Agent({ keepAlive: false });
  for (const device of devices) {
    await Promise.all(
      device.paths.map(
        (path) =>
          new Promise<void>((resolve, reject) =>
            http.get({ host: '127.0.0.1', port: ports.http, path: '/', agent, headers: { host: `${path}.localhost` } }, (res) => (res.resume(), res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`)))))).on('error', reject),
          ),
      ),
    );
  }
  await new Promise((r) => setTimeout(r, 2000));
  const used = rssMb(pid);
  const total = DEVICES * PER_DEVICE;
  console.log(`node ${process.version}; ${DEVICES} devices × ${PER_DEVICE} tunnels = ${total} open tunnels on one standalone proxy`);
  console.log(`  proxy RSS idle: ${idle.toFixed(1)} MB`);
  console.log(`  with ${total} tunnels open: ${open.toFixed(1)} MB (+${((open - idle) * 1024 / total).toFixed(1)} KB per tunnel; all open in ${(openMs / 1000).toFixed(1)} s)`);
  console.log(`  after one request through each: ${used.toFixed(1)} MB (target < 150 MB)`);
  service.close();
} finally {
  for (const c of clients) c.end();
  await proxy.stop();
  await tc.close();
}
