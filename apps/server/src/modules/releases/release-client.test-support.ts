import { releaseListSchema, type RolloutForm } from '@fleetlink/contract';
import { expect } from 'vitest';
import { deviceRow, waitFor, type MessagingSetup } from '../broker/broker.test-support.js';
import { manifest, tarGz } from './bundle-archives.test-support.js';

/** An administrator's calls about bundles, releases and rollouts, and what devices report, for the tests of installed agents. */
export function releaseClient(s: MessagingSetup, admin: string) {
  const props = async (deviceId: string) => (await deviceRow(s.tc.database.db, deviceId)).properties ?? {};
  const client = {
    async upload(body: Buffer) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(body)]), 'bundle.tar.gz');
      const res = await s.tc.api('/api/bundle', { method: 'POST', token: admin, body: form });
      expect(res.status, await res.clone().text()).toBe(201);
    },
    async release(branch: string, version: string, o: { bundle?: string; rollout?: RolloutForm } = {}) {
      const json = { branch, version, bundles: [{ name: 'fleetlink-agent', version: o.bundle ?? version }], ...(o.rollout ? { rollout: o.rollout } : {}) };
      const res = await s.tc.api('/api/release', { method: 'POST', token: admin, json });
      expect(res.status, await res.clone().text()).toBe(201);
    },
    async command(deviceId: string, name: 'update' | 'restart') {
      const res = await s.tc.api(`/api/device/${deviceId}/command`, { method: 'POST', token: admin, json: { name, parameters: [] } });
      return { status: res.status, body: await res.json() };
    },
    props,
    reports: (deviceId: string, expected: Record<string, string>, ms = 60_000) =>
      waitFor(async () => {
        const p = await props(deviceId);
        return Object.entries(expected).every(([k, v]) => p[k] === v) && p;
      }, ms, `${deviceId} reporting ${JSON.stringify(expected)}`),
    async list() {
      return releaseListSchema.parse(await (await s.tc.api('/api/releases', { token: admin })).json());
    },
    async find(branch: string, version: string) {
      return (await client.list()).find((r) => r.branch === branch && r.version === version);
    },
    async standing(branch: string, version: string) {
      return (await client.find(branch, version))?.devices;
    },
  };
  return client;
}

/** A bundle that is no agent that runs: it ends at once, or never comes online. */
export const brokenBundle = (version: string, cli: string) =>
  tarGz([manifest('fleetlink-agent', version), { path: 'package.json', body: JSON.stringify({ version, type: 'module' }) }, { path: 'dist/cli.mjs', body: cli }]);
