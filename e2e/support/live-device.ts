import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { spawnAgent, tempDir, type AgentProcess } from '../../apps/server/src/modules/broker/broker.test-support.js';
import { admin, user, type SeededAccount } from './accounts';
import type { ConsoleSuite } from './console-suite';

export interface LiveDevice {
  organizationId: string;
  deviceId: string;
  agent: AgentProcess;
  /** Starts the agent again after it was killed (its data folder kept its credentials). */
  restart(): AgentProcess;
  /** Stops the agent and removes its data folder. */
  stop(): Promise<void>;
}

/** A new COMPANY organization created by `account` (its CREATOR); answers its id. */
export async function createCompany(suite: ConsoleSuite, account: SeededAccount, name: string): Promise<string> {
  const org = await suite.api(account, 'POST', '/api/organization', {
    type: 'COMPANY',
    name,
    country: 'NL',
    address: 'Keizersgracht 1, Amsterdam',
    email: 'ops@fleetlink.example',
  });
  expect(org.status, JSON.stringify(org.body)).toBe(201);
  return org.body.id;
}

/**
 * A new COMPANY organization (admin@ its CREATOR, user@ a USER member) with one device whose real
 * agent is running and has reported its properties. `options.node`: the Node.js the agent runs on.
 */
export async function startLiveDevice(suite: ConsoleSuite, names: { organization: string; device: string }, options: { node?: string } = {}): Promise<LiveDevice> {
  const organizationId = await createCompany(suite, admin, names.organization);
  const member = await suite.api(admin, 'POST', `/api/organization/${organizationId}/user`, { email: user.email, role: 'USER' });
  expect(member.status, JSON.stringify(member.body)).toBeLessThan(300);
  const device = await suite.api(admin, 'POST', '/api/device', { organization: organizationId, name: names.device, branch: 'PRODUCTION' });
  expect(device.status, JSON.stringify(device.body)).toBe(201);
  const dataDir = tempDir('fleetlink-agent-e2e-');
  let agent = spawnAgent({ server: suite.stack.url, device: device.body.id, key: device.body.installationId, dataDir, node: options.node });
  const stop = async () => {
    await agent.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!(await suite.api(admin, 'GET', `/api/device/${device.body.id}`)).body.properties) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the agent did not report: ${agent.output()}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    organizationId,
    deviceId: device.body.id,
    get agent() {
      return agent;
    },
    restart: () => (agent = spawnAgent({ server: suite.stack.url, device: device.body.id, dataDir, node: options.node })),
    stop,
  };
}
