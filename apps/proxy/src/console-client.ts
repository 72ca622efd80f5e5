import {
  proxyDeviceLoginResultSchema,
  proxyForwardSchema,
  proxyHostKnownSchema,
  proxyRoutes,
  type ProxyForward,
  type ProxyTunnelState,
} from '@fleetlink/contract';

/** A refusal from the console, in its words (`{ code, message }`), with its status. */
export class ConsoleRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The proxy's side of the console's proxy API (contract `proxyRoutes`): every call carries the
 * PROXY server's id and password as Basic credentials.
 */
export class ConsoleClient {
  private readonly authorization: string;

  constructor(
    private readonly consoleUrl: string,
    credentials: { serverId: string; password: string },
  ) {
    this.authorization = `Basic ${Buffer.from(`${credentials.serverId}:${credentials.password}`).toString('base64')}`;
  }

  async deviceLogin(username: string, password: string): Promise<string> {
    const body = await this.call(proxyRoutes.deviceLogin.path, { username, password });
    return proxyDeviceLoginResultSchema.parse(body).deviceId;
  }

  async forward(deviceId: string, port: number): Promise<ProxyForward> {
    return proxyForwardSchema.parse(await this.call(proxyRoutes.forward.path, { deviceId, port }));
  }

  async state(state: ProxyTunnelState): Promise<void> {
    await this.call(proxyRoutes.state.path, state);
  }

  async hostKnown(at: { path: string; customDomain: string | null }): Promise<boolean> {
    return proxyHostKnownSchema.parse(await this.call(proxyRoutes.hostKnown.path, at)).known;
  }

  async hello(domain: string): Promise<void> {
    await this.call(proxyRoutes.hello.path, { domain });
  }

  private async call(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.consoleUrl}${path}`, {
      method: 'POST',
      headers: { authorization: this.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as { message?: string }) : undefined;
    if (!res.ok) throw new ConsoleRefusal(res.status, json?.message ?? `The console answered ${res.status}.`);
    return json;
  }
}
