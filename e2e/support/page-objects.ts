import { expect } from 'vitest';
import { brokenBundle } from '../../apps/server/src/modules/releases/release-client.test-support.js';
import { admin } from './accounts';
import { uploadBundle } from './bundles';
import type { ConsoleSuite } from './console-suite';
import type { LiveDevice } from './live-device';
import { personWithPassword, turnOnTwoFactor, type Person } from './two-factor';

/** The ids of what a page needs to show itself whole: its object's own page, a row, a dialog. */
export interface PageObjects {
  jobId: string;
  tunnelId: string;
  monitorId: string;
  serverId: string;
  /** The name of an organization alert rule with a webhook that has been sent a test event. */
  ruleName: string;
  /** "TEST 9.9.9": a release without waves, so its Rollout… dialog can be opened. */
  releaseName: string;
  /** An invited person's link to the provider's page where they choose a password (no mail here: the answer holds it). */
  passwordLink: string;
  /** A person whose sign-in asks for a second factor. */
  withTwoFactor: Person;
  /** An ADMIN without one: while the realm requires it, their sign-in sets it up. */
  adminWithout: Person;
}

async function created(suite: ConsoleSuite, path: string, body: unknown, status = 201): Promise<{ id: string }> {
  const res = await suite.api(admin, 'POST', path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/**
 * Makes, through the API the pages use, one of each object whose page or dialog people open: a job
 * run on the live device, a tunnel and a monitor on it, a second message server, a release, an
 * alert rule whose webhook (`webhookUrl`, a receiver on loopback) has a delivery, an invited person,
 * and two who sign in (one with two-factor authentication, an ADMIN without).
 */
export async function createPageObjects(suite: ConsoleSuite, live: LiveDevice, webhookUrl: string): Promise<PageObjects> {
  const { deviceId, organizationId } = live;
  const job = await created(suite, '/api/jobs', {
    command: { name: 'execute', parameters: [{ name: 'command', value: 'echo from the job' }] },
    target: { kind: 'devices', ids: [deviceId] },
  });
  const tunnel = await created(suite, `/api/device/${deviceId}/tunnel`, { type: 'TCP', port: 2222, name: 'Axe tunnel' });
  const monitor = await created(suite, `/api/device/${deviceId}/monitor`, { name: 'Axe monitor', type: 'SIZE', path: '/tmp' });
  const server = await created(suite, '/api/server', {
    type: 'MESSAGE',
    url: 'mqtt://127.0.0.1:1',
    maxCapacity: 10,
    status: 'ONLINE',
    username: 'console',
    password: 'pw',
    blobBaseUrl: 'https://blobs.example.com',
  });
  await uploadBundle(suite, 'fleetlink-agent-9.9.9.tar.gz', brokenBundle('9.9.9', 'process.exit(0);\n'));
  await created(suite, '/api/release', { branch: 'TEST', version: '9.9.9', bundles: [{ name: 'fleetlink-agent', version: '9.9.9' }] });
  const ruleName = 'Axe job failed';
  const rule = await created(suite, `/api/organization/${organizationId}/alert-rules`, { name: ruleName, condition: { kind: 'JOB_FAILED' }, webhookUrl });
  await created(suite, `/api/organization/${organizationId}/alert-rules/${rule.id}/test`, undefined, 200);
  const invited = (await created(suite, '/api/accounts', { email: 'axe.invited@example.com', name: 'Axe Invited' })) as unknown as { link: string };
  const withTwoFactor = await personWithPassword(suite, 'axe.two-factor@example.com');
  await turnOnTwoFactor(suite, withTwoFactor);
  const adminWithout = await personWithPassword(suite, 'axe.admin@example.com', 'ADMIN');
  return { jobId: job.id, tunnelId: tunnel.id, monitorId: monitor.id, serverId: server.id, ruleName, releaseName: 'TEST 9.9.9', passwordLink: invited.link, withTwoFactor, adminWithout };
}
