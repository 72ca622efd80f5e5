import { Transform, type TransformCallback } from 'node:stream';

/** A client announced a packet larger than the broker takes. */
export class PacketTooLarge extends Error {
  constructor(
    readonly size: number,
    readonly max: number,
  ) {
    super(`MQTT packet of ${size} bytes refused: the most this broker takes is ${max}.`);
  }
}

/**
 * Passes a client's MQTT bytes on, reading only each packet's fixed header (its type byte and the
 * 1-4 byte remaining length): a packet announced larger than `max` fails the stream before any of
 * it is passed on, so the broker never collects it (Aedes has no limit of its own and buffers a
 * whole packet, whatever its size, before it looks at it).
 */
export class MqttPacketLimit extends Transform {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private left = 0;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'type') {
        i++;
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else if (this.state === 'length') {
        const byte = chunk[i++]!;
        this.length += (byte & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        if (byte & 0x80) {
          // MQTT 3.1.1 §2.2.3: at most four bytes; the parser behind refuses more itself.
          if (this.lengthBytes === 4) return done(new Error('MQTT packet with a malformed remaining length.'));
          continue;
        }
        if (this.length > this.max) return done(new PacketTooLarge(this.length, this.max));
        this.left = this.length;
        this.state = this.left ? 'body' : 'type';
      } else {
        const take = Math.min(this.left, chunk.length - i);
        i += take;
        this.left -= take;
        if (!this.left) this.state = 'type';
      }
    }
    done(null, chunk);
  }
}
