import { AgentProperty } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPidUnder, deviceRow, embeddedSetup, memberDevice, tearDown, tempDir, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { packAgentBundle } from './bundle-archives.test-support.js';
import { installBundle, runInstalled } from './installed-agent.test-support.js';

/**
 * Issue 67: the installed launcher (launcher/fleetlink-agent, run by sh as on a device) restarts an
 * agent that was killed, after delays that grow (1 s, 2 s, 4 s, each plus up to half at random),
 * and the agent reports how often and why to the real console.
 */
describe('the launcher restarts a killed agent with backoff', () => {
  let s: MessagingSetup;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  let device: { id: string; key: string };
  let agent: AgentProcess;
  const props = async () => (await deviceRow(s.tc.database.db, device.id)).properties ?? {};

  beforeAll(async () => {
    s = await embeddedSetup();
    const out = tempDir('fleetlink-restarts-');
    const home = tempDir('fleetlink-installed-');
    cleanup.dirs.push(out, home);
    await installBundle(home, packAgentBundle('1.0.0', out), '1.0.0');
    device = await memberDevice(s.tc.database.db, 'crashy');
    agent = runInstalled(home, { server: s.tc.url, device: device.id, key: device.key });
    cleanup.agents.push(agent);
    await waitFor(async () => (await props())[AgentProperty.BundleVersion] === '1.0.0', 60_000, 'the installed agent online');
  }, 120_000);
  afterAll(async () => tearDown(s, cleanup));

  it('kills it three times: each restart waits longer, and the properties say how often and why', async () => {
    const launcher = agent.child.pid!;
    const delays: number[] = [];
    for (let kill = 1; kill <= 3; kill++) {
      const pid = await agent.workerPid();
      process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      await waitFor(() => {
        const next = agentPidUnder(launcher);
        return next !== undefined && next !== pid;
      }, 30_000, `the agent restarted after kill ${kill}`);
      delays.push(Date.now() - killedAt);
      // Online again, and saying so, before the next kill.
      await waitFor(async () => (await props())[AgentProperty.Restarts] === String(kill), 60_000, `the agent reporting restart ${kill}`);
    }
    // 1 s to 1.5 s, 2 s to 3 s, 4 s to 6 s (plus the time it takes to notice and start).
    const bounds = [1000, 2000, 4000];
    delays.forEach((d, i) => {
      expect(d, `delay ${i + 1} of ${delays.join(', ')} ms`).toBeGreaterThanOrEqual(bounds[i]!);
      expect(d, `delay ${i + 1} of ${delays.join(', ')} ms`).toBeLessThan(bounds[i]! * 1.5 + 1000);
    });
    expect(delays[1]).toBeGreaterThan(delays[0]!);
    expect(delays[2]).toBeGreaterThan(delays[1]!);
    const p = await props();
    expect(p[AgentProperty.LastExit]).toBe('killed by signal KILL');
    expect(Math.abs(Date.now() - Date.parse(p[AgentProperty.LastExitTime]!))).toBeLessThan(60_000);
    expect(agent.output()).toMatch(/the agent killed by signal KILL; restarting it in [45]\.\d{3} s \(restart 3, 3 in a row\)/);
  }, 120_000);

  it('stops at once when it is told to during a restart delay', async () => {
    process.kill(await agent.workerPid(), 'SIGKILL');
    await waitFor(() => /restarting it in \d+\.\d{3} s \(restart 4, 4 in a row\)/.test(agent.output()), 10_000, 'the fourth restart delay (8 s) begun');
    const asked = Date.now();
    await agent.kill('SIGTERM');
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(agent.child.exitCode).toBe(0);
  }, 60_000);
});
