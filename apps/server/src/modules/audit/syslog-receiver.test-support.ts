import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

/** One RFC 5424 message as a collector reads it, with the fields a test checks. */
export interface SyslogMessage {
  raw: string;
  pri: number;
  msgid: string;
  /** The structured data's parameters. */
  params: Record<string, string>;
  text: string;
}

/** HEADER, then the structured data (one element, or '-' for none), then the text. */
const MESSAGE = /^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) (\[.*?[^\\]\]|-) \uFEFF?(.*)$/s;

export function parseSyslog(raw: string): SyslogMessage {
  const m = MESSAGE.exec(raw);
  if (!m) throw new Error(`not an RFC 5424 message: ${raw}`);
  const params: Record<string, string> = {};
  for (const p of m[7]!.matchAll(/ (\w+)="((?:[^"\\]|\\.)*)"/g)) params[p[1]!] = p[2]!.replace(/\\(.)/g, '$1');
  return { raw, pri: Number(m[1]), msgid: m[6]!, params, text: m[8]! };
}

/** A self-signed certificate for `localhost` and its key (PEM files in `dir`), made by openssl: a private CA's collector. */
export function localhostCertificate(dir: string): { certFile: string; cert: Buffer; key: Buffer } {
  const certFile = path.join(dir, 'collector.pem');
  const keyFile = path.join(dir, 'collector.key');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', keyFile, '-out', certFile],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

/**
 * A syslog collector on loopback, as an operator runs one: TCP (or TLS, given a certificate), RFC
 * 6587 octet counting. It can go away and come back on the same port, as a collector restarting does.
 */
export async function startSyslogReceiver(o: { tls?: { cert: Buffer; key: Buffer } } = {}): Promise<{
  port: number;
  got: SyslogMessage[];
  stop(): Promise<void>;
  start(): Promise<void>;
  waitFor(match: (m: SyslogMessage) => boolean, count?: number, ms?: number): Promise<SyslogMessage[]>;
}> {
  const got: SyslogMessage[] = [];
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      const accept = (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        let buffer = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => {
          buffer = Buffer.concat([buffer, chunk]);
          for (;;) {
            const space = buffer.indexOf(0x20);
            if (space < 0) return;
            const length = Number(buffer.subarray(0, space).toString('ascii'));
            if (buffer.length < space + 1 + length) return;
            got.push(parseSyslog(buffer.subarray(space + 1, space + 1 + length).toString('utf8')));
            buffer = buffer.subarray(space + 1 + length);
          }
        });
      };
      server = o.tls ? createTlsServer(o.tls, accept) : createServer(accept);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    got,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    start: listen,
    async waitFor(match, count = 1, ms = 15_000) {
      const until = Date.now() + ms;
      while (got.filter(match).length < count) {
        if (Date.now() > until) throw new Error(`the collector got ${got.filter(match).length} of ${count} matching messages in ${ms} ms: ${got.map((g) => g.msgid).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return got.filter(match);
    },
  };
}
