import { connect, type Socket } from 'node:net';

/** An MQTT remaining length (MQTT 3.1.1 §2.2.3). */
function remainingLength(n: number): Buffer {
  const out: number[] = [];
  do {
    out.push((n % 128) | (n >= 128 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.from(out);
}

const utf8 = (s: string) => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};

/**
 * A device's MQTT connection written byte by byte, for what a library client would not send: it
 * signs in (CONNECT, waits for CONNACK), then can announce a PUBLISH of any size and stream its
 * payload in pieces, so that a test holds none of a large payload itself.
 */
export async function rawMqttClient(url: string, account: { username: string; password: string; clientId: string }): Promise<{ socket: Socket; closed: Promise<void>; publishLarge(topic: string, bytes: number): Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const variable = Buffer.concat([utf8('MQTT'), Buffer.from([4, 0xc2, 0, 60])]);
  const payload = Buffer.concat([utf8(account.clientId), utf8(account.username), utf8(account.password)]);
  const body = Buffer.concat([variable, payload]);
  socket.write(Buffer.concat([Buffer.from([0x10]), remainingLength(body.length), body]));
  const connack = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
  if (connack[0] !== 0x20 || connack[3] !== 0) throw new Error(`CONNACK refused: ${connack.toString('hex')}`);
  socket.resume();
  return {
    socket,
    closed,
    async publishLarge(topic, bytes) {
      const head = utf8(topic);
      socket.write(Buffer.concat([Buffer.from([0x30]), remainingLength(head.length + bytes), head]));
      const piece = Buffer.alloc(64 * 1024);
      for (let sent = 0; sent < bytes && !socket.destroyed; sent += piece.length) {
        if (!socket.write(piece.subarray(0, Math.min(piece.length, bytes - sent)))) {
          await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
        }
      }
    },
  };
}
