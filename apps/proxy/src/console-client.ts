import {
  proxyDeviceLoginResultSchema,
  proxyForwardSchema,
  proxyHostKnownSchema,
  proxyRevocationsSchema,
  proxyRoutes,
  type ProxyForward,
  type ProxyRevocations,
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

  async deviceLogin(username: string, password: string): Promise<{ deviceId: string; credential: string }> {
    return proxyDeviceLoginResultSchema.parse(await this.call(proxyRoutes.deviceLogin.path, { username, password }));
  }

  /** `credential` is what the device's login answered: the console checks it still holds. */
  async forward(deviceId: string, port: number, credential: string): Promise<ProxyForward> {
    return proxyForwardSchema.parse(await this.call(proxyRoutes.forward.path, { deviceId, port, credential }));
  }

  async revocations(after: string | null): Promise<ProxyRevocations> {
    return proxyRevocationsSchema.parse(await this.call(proxyRoutes.revocations.path, { after }));
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
