import { Agent, type ClientRequestArgs } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { openChannel, type HttpTunnel } from './tunnel-table.js';

/** What Node's HTTP agent asks of a socket beyond a stream; an SSH channel has nothing to set for them. */
const SOCKET_ONLY = ['setKeepAlive', 'setNoDelay', 'setTimeout', 'ref', 'unref'] as const;

/**
 * The ingress's HTTP agent for one tunnel: its connections are SSH channels through the device's
 * forward, kept open between requests. A client's keep-alive requests and a page's assets reuse a
 * channel (and the agent's connection to its service) instead of opening one each: at thousands of
 * requests a second, opening them is what would cost.
 */
export class ChannelAgent extends Agent {
  constructor(private readonly tunnel: HttpTunnel) {
    super({ keepAlive: true, maxFreeSockets: 64 });
  }

  // Answers through the callback (the channel opens asynchronously), as Node's Agent allows.
  override createConnection(_options: ClientRequestArgs, oncreate?: (err: Error | null, stream: Duplex) => void): undefined {
    openChannel(this.tunnel).then(
      (channel) => oncreate?.(null, asSocket(channel)),
      (err: Error) => oncreate?.(err, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

/** An SSH channel (or any stream) as the socket an HTTP client writes to. */
export function asSocket(stream: Duplex): Socket {
  const s = stream as Duplex & Record<string, unknown>;
  for (const name of SOCKET_ONLY) if (typeof s[name] !== 'function') s[name] = () => s;
  return s as unknown as Socket;
}
