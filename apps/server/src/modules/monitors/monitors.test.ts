import { appendFileSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deviceSchema, monitorSchema, type Monitor } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceRow,
  embeddedSetup,
  mosquittoBin,
  mosquittoSetup,
  onlineMemberDevice,
  spawnAgent,
  tempDir,
  tearDown,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';
import { eq, sql } from 'drizzle-orm';
import { devices } from '../../db/schema/index.js';
import { expectError } from '../../testing/expect-error.js';
import { MonitorsRepository } from './monitors.repository.js';

const bin = mosquittoBin();

/**
 * Issue 28: monitors against a real agent over a real broker, on files made for each suite. The
 * agents here heartbeat every 2 s, so a change on disk shows within a few seconds.
 */
function monitorsSuite(setup: () => Promise<MessagingSetup>, opts: { full: boolean }) {
  let s: MessagingSetup;
  let admin: string;
  let user: string;
  let guest: string;
  let device: { id: string; key: string };
  let tree: string;
  let agent: AgentProcess;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  const base = () => `/api/device/${device.id}/monitor`;
  const create = (json: object, token = admin) => s.tc.api(base(), { method: 'POST', token, json });
  const update = (id: string, json: object, token = admin) => s.tc.api(`${base()}/${id}`, { method: 'PUT', token, json });
  const remove = (id: string, token = admin) => s.tc.api(`${base()}/${id}`, { method: 'DELETE', token });
  const created = async (json: object): Promise<Monitor> => {
    const res = await create(json);
    expect(res.status, await res.clone().text()).toBe(201);
    return monitorSchema.parse(await res.json());
  };
  const getDevice = async (token = user) => deviceSchema.parse(await (await s.tc.api(`/api/device/${device.id}`, { token })).json());
  const monitorNamed = async (name: string) => (await getDevice()).monitors.find((m) => m.name === name)!;
  const valueBecomes = (name: string, expected: (value: string | null) => boolean, what: string) =>
    waitFor(async () => {
      const m = await monitorNamed(name);
      return expected(m.value) && m;
    }, 15_000, what);

  beforeAll(async () => {
    s = await setup();
    ({ admin, user, guest, device, agent } = await onlineMemberDevice(s, 'monitored', { agents, dirs }));
    tree = tempDir('fleetlink-monitors-');
    dirs.push(tree);
    mkdirSync(path.join(tree, 'app'));
    writeFileSync(path.join(tree, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.4.2' }));
    writeFileSync(path.join(tree, 'app', 'data.bin'), Buffer.alloc(1000));
    writeFileSync(path.join(tree, 'log.txt'), 'x'.repeat(2048));
  });

  afterAll(() => tearDown(s, { agents, dirs }));

  it('reads each type at once, and again after the file changes: touch, grow, bump the version', async () => {
    const log = path.join(tree, 'log.txt');
    const manifest = path.join(tree, 'app', 'package.json');
    utimesSync(log, new Date('2026-03-01T10:00:00Z'), new Date('2026-03-01T10:00:00Z'));
    const updated = await created({ name: 'log updated', type: 'UPDATE', path: log });
    expect(updated).toMatchObject({ name: 'log updated', type: 'UPDATE', path: log, value: '2026-03-01T10:00:00.000Z', note: null });
    expect(updated.observedAt).not.toBeNull();
    const size = await created({ name: 'log size', type: 'SIZE', path: log });
    expect(size.value).toBe('2048');
    const version = await created({ name: 'app version', type: 'VERSION', path: manifest });
    expect(version.value).toBe('1.4.2');

    utimesSync(log, new Date('2026-11-20T08:30:00Z'), new Date('2026-11-20T08:30:00Z'));
    await valueBecomes('log updated', (v) => v === '2026-11-20T08:30:00.000Z', 'the new modification time');
    appendFileSync(log, 'y'.repeat(1000));
    await valueBecomes('log size', (v) => v === '3048', 'the grown size');
    writeFileSync(manifest, JSON.stringify({ name: 'app', version: '1.5.0' }));
    await valueBecomes('app version', (v) => v === '1.5.0', 'the bumped version');

    // SPEC §3: each value is also the device's property monitor:{name}.
    const d = await getDevice();
    expect(d.properties).toMatchObject({ 'monitor:log size': String(statSync(log).size), 'monitor:app version': '1.5.0' });
  });

  it('says why a missing path has no value, and reads it once it exists', async () => {
    const later = path.join(tree, 'later.txt');
    const m = await created({ name: 'later', type: 'SIZE', path: later });
    expect(m).toMatchObject({ value: null, note: `'${later}' does not exist.` });
    writeFileSync(later, 'abc');
    const read = await valueBecomes('later', (v) => v === '3', 'the file that now exists');
    expect(read.note).toBeNull();
  });

  if (!opts.full) return;

  it('counts a whole folder, and reads a folder’s version from its manifest', async () => {
    const folder = path.join(tree, 'app');
    const size = await created({ name: 'app size', type: 'SIZE', path: folder });
    expect(Number(size.value)).toBe(statSync(path.join(folder, 'package.json')).size + 1000);
    expect(size.note).toBeNull();
    mkdirSync(path.join(folder, 'lib'));
    writeFileSync(path.join(folder, 'lib', 'more.bin'), Buffer.alloc(5000));
    await valueBecomes('app size', (v) => Number(v) === statSync(path.join(folder, 'package.json')).size + 6000, 'the folder grown');
    const version = await created({ name: 'folder version', type: 'VERSION', path: folder });
    expect(version.value).toBe('1.5.0');
    const notes = await created({ name: 'no version', type: 'VERSION', path: path.join(folder, 'data.bin') });
    expect(notes).toMatchObject({ value: null, note: `'${path.join(folder, 'data.bin')}' is not a text file.` });
  });

  it('refuses what SPEC §5 refuses, with its words, on the API', async () => {
    const long = await expectError(await create({ name: 'n'.repeat(129), path: '/tmp' }), 400);
    expect(long.message).toBe('Name must be less than 129 characters.');
    const longPath = await expectError(await create({ name: 'p', path: `/${'p'.repeat(255)}` }), 400);
    expect(longPath.message).toBe('Path must be less than 256 characters.');
    expect((await expectError(await create({ path: '/tmp' }), 400)).message).toBe('Name is required.');
    expect((await expectError(await create({ name: 'no path' }), 400)).message).toBe('Path is required.');
    expect((await expectError(await create({ name: 'x', type: 'COLOUR', path: '/tmp' }), 400)).message).toBe('Type is required.');
    expect((await expectError(await create({ name: 'rel', path: 'tmp/x' }), 400)).message).toBe('Path must be absolute: start it with / (or a drive such as C:\\).');
    // Type defaults to UPDATE (SPEC §5); 128 characters and 255 are still fine.
    const fine = await created({ name: 'n'.repeat(128), path: `/${'p'.repeat(254)}` });
    expect(fine.type).toBe('UPDATE');
    const taken = await expectError(await create({ name: 'n'.repeat(128), path: '/tmp' }), 409);
    expect(taken.message).toBe(`A monitor named '${'n'.repeat(128)}' exists already on this device.`);
    expect(taken.fields).toEqual({ name: taken.message });
    expect((await expectError(await s.tc.api(`${base()}/not-an-id`, { token: admin }), 400)).message).toBe('The monitor id is not valid.');
    await remove(fine.id);
  });

  it('lets members read, CREATOR and ADMIN change, nobody else; every change is in the audit trail', async () => {
    const m = await created({ name: 'matrix', type: 'SIZE', path: path.join(tree, 'log.txt') });
    // A USER member reads it, alone and in the device; changes are not theirs.
    expect((await s.tc.api(`${base()}/${m.id}`, { token: user })).status).toBe(200);
    expect((await getDevice(user)).monitors.map((x) => x.name)).toContain('matrix');
    expect((await expectError(await create({ name: 'mine', path: '/tmp' }, user), 403)).code).toBe('FORBIDDEN');
    expect((await expectError(await update(m.id, { name: 'mine', path: '/tmp' }, user), 403)).code).toBe('FORBIDDEN');
    expect((await expectError(await remove(m.id, user), 403)).code).toBe('FORBIDDEN');
    // Someone who is no member sees nothing.
    for (const res of [await s.tc.api(`${base()}/${m.id}`, { token: guest }), await create({ name: 'g', path: '/tmp' }, guest), await remove(m.id, guest)]) {
      expect(res.status).toBe(403);
    }
    // An ADMIN member renames it and points it elsewhere: the old reading goes, the new one comes.
    const changed = await update(m.id, { name: 'matrix renamed', type: 'UPDATE', path: path.join(tree, 'app') });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const after = monitorSchema.parse(await changed.json());
    expect(after).toMatchObject({ name: 'matrix renamed', type: 'UPDATE' });
    expect(new Date(after.value!).getTime()).toBeGreaterThan(0);
    expect((await getDevice()).properties).not.toHaveProperty('monitor:matrix');
    expect((await expectError(await update(crypto.randomUUID(), { name: 'x', path: '/tmp' }), 404)).message).toBe('Monitor not found.');
    expect((await remove(m.id)).status).toBe(204);
    expect((await expectError(await remove(m.id), 404)).message).toBe('Monitor not found.');

    const audit = await s.tc.api(`/api/audit?device=${device.id}`, { token: admin });
    const entries = (await audit.json()).entries as { kind: string; outcome: string; details: Record<string, unknown> }[];
    const ours = entries.filter((e) => e.details.id === m.id).map((e) => [e.kind, e.outcome, e.details.name]);
    expect(entries.find((e) => e.kind === 'monitor.update' && e.outcome === 'ok')!.details.changes).toEqual({
      name: ['matrix', 'matrix renamed'],
      type: ['SIZE', 'UPDATE'],
      path: [path.join(tree, 'log.txt'), path.join(tree, 'app')],
    });
    expect(ours).toEqual([
      ['monitor.delete', 'error', undefined],
      ['monitor.delete', 'ok', 'matrix renamed'],
      ['monitor.update', 'ok', 'matrix renamed'],
      ['monitor.delete', 'error', undefined],
      ['monitor.update', 'error', 'mine'],
      ['monitor.create', 'ok', 'matrix'],
    ]);
  });

  it('keeps a reading only for the definition it read, and monitor properties only of monitors', async () => {
    const m = await created({ name: 'exact', type: 'SIZE', path: path.join(tree, 'log.txt') });
    const repo = new MonitorsRepository(s.tc.database.db);
    await repo.recordReadings(device.id, [{ id: m.id, type: 'SIZE', path: '/elsewhere', value: '1', note: null }], new Date());
    await repo.recordReadings(device.id, [{ id: m.id, type: 'UPDATE', path: m.path, value: '2', note: null }], new Date());
    expect((await monitorNamed('exact')).value).toBe(m.value);
    await remove(m.id);
    // An agent's own monitor:{name} property names no monitor: it is not shown as one.
    await s.tc.database.db
      .update(devices)
      .set({ properties: sql`${devices.properties} || '{"monitor:forged":"1"}'::jsonb` })
      .where(eq(devices.id, device.id));
    const d = await getDevice();
    expect(d.properties).not.toHaveProperty('monitor:forged');
    expect(d.properties).toHaveProperty('monitor:log size');
  });

  it('keeps monitors and last readings while the device is offline, and sends them when its agent is back', async () => {
    const file = path.join(tree, 'offline.txt');
    writeFileSync(file, '12345');
    const m = await created({ name: 'offline size', type: 'SIZE', path: file });
    expect(m.value).toBe('5');
    await agent.kill();
    await waitFor(async () => !(await deviceRow(s.tc.database.db, device.id)).online, 20_000, 'device offline');
    const kept = await monitorNamed('offline size');
    expect(kept).toMatchObject({ value: '5', observedAt: expect.any(String) });
    // Changed while the agent is away: the console keeps it, and the agent learns it when back.
    const renamed = await update(m.id, { name: 'offline size', type: 'SIZE', path: path.join(tree, 'log.txt') });
    expect(renamed.status).toBe(200);
    expect(monitorSchema.parse(await renamed.json()).value).toBeNull();
    rmSync(file);
    const back = spawnAgent({ server: s.tc.url, device: device.id, dataDir: dirs[0]! });
    agents.push(back);
    agent = back;
    await valueBecomes('offline size', (v) => v === String(statSync(path.join(tree, 'log.txt')).size), 'the changed monitor read after the restart');
  });
}

describe('monitors on the embedded broker', () => {
  monitorsSuite(() => embeddedSetup(), { full: true });
});

describe.skipIf(!bin)('monitors on Mosquitto with dynamic security', () => {
  monitorsSuite(() => mosquittoSetup(bin!), { full: false });
});
