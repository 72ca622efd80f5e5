import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { deviceSchema, driveOf, FILE_LISTING_PAGE_MAX, fileListingSchema, type FileListing } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDevice,
  embeddedSetup,
  memberDevice,
  mosquittoBin,
  mosquittoSetup,
  onlineMemberDevice,
  runAgentOnline,
  tempDir,
  tearDown,
  USER_EMAIL,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';
import { expectError } from '../../testing/expect-error.js';

/** The unprivileged account an agent runs as to meet a folder it may not read (root reads everything). */
const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;
const bin = mosquittoBin();

/**
 * Issue 26: the Storage page's calls against a real agent over a real broker, on a folder tree made
 * for each test: the listing (`file` through the command route), the changes, the drive scan, and
 * who may do what.
 */
function storageSuite(setup: () => Promise<MessagingSetup>) {
  let s: MessagingSetup;
  let admin: string;
  let user: string;
  let guest: string;
  let device: { id: string; key: string };
  let tree: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  const list = (p: string, more: Record<string, string> = {}, token = user, id = device.id) =>
    s.tc.api(`/api/device/${id}/command`, {
      method: 'POST',
      token,
      json: { name: 'file', parameters: Object.entries({ path: p, ...more }).map(([name, value]) => ({ name, value })) },
    });
  const listing = async (res: Response): Promise<FileListing> => {
    expect(res.status, await res.clone().text()).toBe(200);
    return fileListingSchema.parse(await res.json());
  };
  const post = (what: string, json: object, token = admin) => s.tc.api(`/api/device/${device.id}/${what}`, { method: 'POST', token, json });
  const remove = (p: string, recursive?: boolean, token = admin) =>
    s.tc.api(`/api/device/${device.id}/file?${new URLSearchParams({ path: p, ...(recursive ? { recursive: 'true' } : {}) })}`, { method: 'DELETE', token });

  beforeAll(async () => {
    s = await setup();
    ({ admin, user, guest, device } = await onlineMemberDevice(s, 'storage', { agents, dirs }));
    tree = tempDir('fleetlink-files-');
    dirs.push(tree);
    mkdirSync(path.join(tree, 'docs'));
    mkdirSync(path.join(tree, '.config'));
    writeFileSync(path.join(tree, 'docs', 'a.txt'), 'x'.repeat(3000));
    writeFileSync(path.join(tree, 'b.bin'), Buffer.alloc(2048));
    writeFileSync(path.join(tree, '.hidden'), 'h');
    symlinkSync('loop', path.join(tree, 'loop'));
  });

  afterAll(() => tearDown(s, { agents, dirs }));

  it('lists a folder for a USER member: drives, ancestors, folders first, sizes, hidden marked', async () => {
    const l = await listing(await list(tree));
    expect(l.request).toEqual({ name: 'file', parameters: { path: tree } });
    expect(l.drives.length).toBeGreaterThan(0);
    expect(l.drives[0]).toMatchObject({ name: expect.any(String), root: expect.any(String) });
    expect(l.drives[0]!.totalSpace).toBeGreaterThan(0);
    expect(Object.entries(l.ancestors)).toEqual([['/', '/'], ['/tmp', 'tmp'], [tree, path.basename(tree)]].filter(([p]) => tree.startsWith(p!)));
    expect(l.files.map((f) => [f.name, f.isFolder, f.hidden, f.size])).toEqual([
      ['.config', true, true, null],
      ['docs', true, false, null],
      ['.hidden', false, true, 1],
      ['b.bin', false, false, 2048],
      ['loop', false, false, null],
    ]);
    const bin = l.files.find((f) => f.name === 'b.bin')!;
    expect(bin.path).toBe(path.join(tree, 'b.bin'));
    expect(new Date(bin.modified!).getTime()).toBe(statSync(bin.path).mtime.getTime());
    expect(l).toMatchObject({ total: 5, offset: 0 });

    const visible = await listing(await list(tree, { hidden: 'false' }));
    expect(visible.files.map((f) => f.name)).toEqual(['docs', 'b.bin', 'loop']);
    expect(visible.total).toBe(3);
  });

  it('answers a missing path, a file, a link loop, a relative path and `..` with the agent’s words', async () => {
    expect((await expectError(await list(path.join(tree, 'nope')), 404)).message).toBe(`'${path.join(tree, 'nope')}' does not exist.`);
    expect((await expectError(await list(path.join(tree, 'b.bin')), 422)).message).toBe(`'${path.join(tree, 'b.bin')}' is not a folder.`);
    expect((await expectError(await list(path.join(tree, 'loop')), 422)).message).toBe(`'${path.join(tree, 'loop')}' is a symbolic link that leads back to itself.`);
    expect((await expectError(await list('tmp'), 422)).message).toBe("The path 'tmp' is not absolute.");
    expect((await expectError(await list(`${tree}/docs/../..`), 422)).message).toBe(`The path '${tree}/docs/../..' contains '..': name the folder itself.`);
    expect((await expectError(await list(`${tree}\u0000`), 400)).message).toBe('Path cannot contain control characters.');
    // The agent is still there.
    await listing(await list(tree));
  });

  it('answers a folder the agent may not read with a clear refusal', async () => {
    const locked = path.join(tree, 'locked');
    mkdirSync(locked, { mode: 0o700 });
    chmodSync(locked, 0o000);
    let id = device.id;
    if (isRoot) {
      // Root reads everything: a second agent runs as nobody, who may enter the tree but not `locked`.
      chmodSync(tree, 0o755);
      const other = await memberDevice(s.tc.database.db, 'storage as nobody');
      await runAgentOnline(s.tc, other, { agents, dirs }, NOBODY);
      id = other.id;
    }
    const res = await list(locked, {}, user, id);
    expect((await expectError(res, 422)).message).toBe(`The agent is not allowed to read '${locked}'.`);
    // A scan counts it and names it (issue 59: "1 folder could not be read" said not which).
    const started = await s.tc.api(`/api/device/${id}/disk?path=${encodeURIComponent(tree)}`, { method: 'POST', token: user });
    expect(started.status, await started.clone().text()).toBe(202);
    const scanned = await waitFor(async () => {
      const d = deviceSchema.parse(await (await s.tc.api(`/api/device/${id}`, { token: user })).json()).drives.find((x) => x.detail?.root?.path === tree)?.detail;
      return d?.status === 'DONE' && d;
    }, 30_000, 'the scan done');
    expect(scanned.root!.unreadable).toBeGreaterThanOrEqual(1);
    expect(scanned.root!.unreadablePaths).toContain(locked);
    chmodSync(locked, 0o700);
  });

  it('pages a folder of 100,000 entries within its deadline, in bounded memory', async () => {
    const big = path.join(tree, 'big');
    mkdirSync(big);
    // Made by another process: 100,000 writes here would stall the console and broker this test runs.
    await promisify(execFile)('sh', ['-c', 'seq -f f%.0f 0 99999 | xargs touch'], { cwd: big });
    const started = performance.now();
    const first = await listing(await list(big));
    const took = performance.now() - started;
    expect(took).toBeLessThan(30_000);
    expect(first).toMatchObject({ total: 100_000, offset: 0 });
    expect(first.files).toHaveLength(FILE_LISTING_PAGE_MAX);
    expect(first.files.slice(0, 3).map((f) => f.name)).toEqual(['f0', 'f1', 'f2']); // numeric order
    const last = await listing(await list(big, { offset: '99900' }));
    expect(last.files.map((f) => f.name).at(-1)).toBe('f99999');
    expect(last.files).toHaveLength(100);
    const worker = await agents[0]!.workerPid();
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${worker}/status`, 'utf8'))![1]);
    expect(peakKb / 1024).toBeLessThan(200);
    rmSync(big, { recursive: true });
  }, 120_000);

  it('lets an ADMIN member create a folder, rename and delete, each in the audit trail', async () => {
    const created = await post('folder', { path: tree, name: 'reports' });
    expect(created.status).toBe(201);
    expect((await created.json()).entry).toMatchObject({ name: 'reports', path: path.join(tree, 'reports'), isFolder: true });
    expect((await expectError(await post('folder', { path: tree, name: 'reports' }), 409)).message).toBe(`'reports' exists already in '${tree}'.`);

    const renamed = await post('rename', { path: path.join(tree, 'reports'), name: 'archive' });
    expect(renamed.status).toBe(200);
    expect(existsSync(path.join(tree, 'archive'))).toBe(true);
    expect((await expectError(await post('rename', { path: path.join(tree, 'archive'), name: 'b.bin' }), 409)).message).toBe(`'b.bin' exists already in '${tree}'.`);
    expect((await expectError(await post('rename', { path: path.join(tree, 'gone'), name: 'x' }), 404)).message).toBe(`'${path.join(tree, 'gone')}' does not exist.`);

    writeFileSync(path.join(tree, 'archive', 'inside.txt'), 'i');
    const notEmpty = await expectError(await remove(path.join(tree, 'archive')), 409);
    expect(notEmpty).toMatchObject({ code: 'FOLDER_NOT_EMPTY', message: "The folder 'archive' is not empty." });
    expect(existsSync(path.join(tree, 'archive', 'inside.txt'))).toBe(true);
    expect((await remove(path.join(tree, 'archive'), true)).status).toBe(200);
    expect(existsSync(path.join(tree, 'archive'))).toBe(false);
    expect((await remove(path.join(tree, '.hidden'))).status).toBe(200);
    expect(existsSync(path.join(tree, '.hidden'))).toBe(false);
    expect((await expectError(await remove('/'), 422)).message).toBe("A drive's root cannot be deleted.");

    const audit = await s.tc.api(`/api/audit?device=${device.id}`, { token: admin });
    const kinds = (await audit.json()).entries.map((e: { kind: string; outcome: string; details: { path: string } }) => [e.kind, e.outcome, e.details.path]);
    // Exactly one entry per change, refused ones included, newest first.
    expect(kinds.filter(([k]: string[]) => k.startsWith('file.'))).toEqual([
      ['file.delete', 'error', '/'],
      ['file.delete', 'ok', path.join(tree, '.hidden')],
      ['file.delete', 'ok', path.join(tree, 'archive')],
      ['file.delete', 'error', path.join(tree, 'archive')],
      ['file.rename', 'error', path.join(tree, 'gone')],
      ['file.rename', 'error', path.join(tree, 'archive')],
      ['file.rename', 'ok', path.join(tree, 'reports')],
      ['file.create-folder', 'error', tree],
      ['file.create-folder', 'ok', tree],
    ]);
    // A listing changes nothing, and leaves nothing.
    expect(kinds.filter(([k]: string[]) => k === 'command')).toEqual([]);
  });

  it('refuses names that leave the folder, with the field’s message, before the agent sees them', async () => {
    const cases: [string, string][] = [
      ['..', 'Name cannot be . or ..'],
      ['../escape', 'Name cannot contain / or \\.'],
      ['a\\b', 'Name cannot contain / or \\.'],
      ['', 'Name is required.'],
      ['x'.repeat(256), 'Name must be less than 256 characters.'],
      ['bad\u0007', 'Name cannot contain control characters.'],
    ];
    for (const [name, message] of cases) {
      const body = await expectError(await post('folder', { path: tree, name }), 400);
      expect(body.fields?.name, name).toBe(message);
    }
    expect(existsSync(path.join(path.dirname(tree), 'escape'))).toBe(false);
  });

  it('holds the role matrix: USER member browses only, guest 403, non-member 404', async () => {
    const asUser = await expectError(await post('folder', { path: tree, name: 'nope' }, user), 403);
    expect(asUser.message).toBe('Only the creator or an administrator of the organization can change this device.');
    await expectError(await post('rename', { path: path.join(tree, 'b.bin'), name: 'c.bin' }, user), 403);
    await expectError(await remove(path.join(tree, 'b.bin'), false, user), 403);
    expect(existsSync(path.join(tree, 'b.bin'))).toBe(true);

    expect((await expectError(await list(tree, {}, guest), 403)).message).toBe('You do not have the necessary authorization: role USER is required.');
    await expectError(await post('folder', { path: tree, name: 'nope' }, guest), 403);

    const elsewhere = await createDevice(s.tc.database.db, 'not a member');
    expect((await expectError(await list(tree, {}, user, elsewhere.id), 404)).message).toBe('Device not found.');
    const foreign = await s.tc.api(`/api/device/${elsewhere.id}/folder`, { method: 'POST', token: admin, json: { path: tree, name: 'x' } });
    await expectError(foreign, 404);
    expect(existsSync(path.join(tree, 'nope'))).toBe(false);
  });

  it('answers an offline device at once', async () => {
    const offline = await memberDevice(s.tc.database.db, 'never installed');
    expect((await expectError(await list(tree, {}, user, offline.id), 409)).message).toBe(
      'The device is offline: a command reaches it only while its agent is connected.',
    );
    const res = await s.tc.api(`/api/device/${offline.id}/folder`, { method: 'POST', token: admin, json: { path: tree, name: 'x' } });
    expect((await expectError(res, 409)).message).toBe('The device is offline: its files can be changed only while its agent is connected.');
    const scan = await s.tc.api(`/api/device/${offline.id}/disk?path=%2F`, { method: 'POST', token: user });
    expect((await expectError(scan, 409)).message).toBe('The device is offline: a drive can be scanned only while its agent is connected.');
  });

  it('scans a folder: its drive is BUSY, a second scan is refused, then the sizes per folder are there', async () => {
    const scanRoot = path.join(tree, 'scan');
    mkdirSync(path.join(scanRoot, 'big'), { recursive: true });
    mkdirSync(path.join(scanRoot, 'small'));
    writeFileSync(path.join(scanRoot, 'big', 'data'), Buffer.alloc(1024 * 1024, 1));
    writeFileSync(path.join(scanRoot, 'small', 'data'), Buffer.alloc(10_000, 1));
    writeFileSync(path.join(scanRoot, 'top'), Buffer.alloc(5000, 1));
    const scan = (p: string, token = user) => s.tc.api(`/api/device/${device.id}/disk?path=${encodeURIComponent(p)}`, { method: 'POST', token });
    const getDevice = async () => deviceSchema.parse(await (await s.tc.api(`/api/device/${device.id}`, { token: user })).json());
    const root = driveOf((await getDevice()).drives, scanRoot)!;
    expect(root).toBeDefined();

    // The agent is held still, so the scan stays BUSY for as long as the test looks at it.
    const worker = await agents[0]!.workerPid();
    process.kill(worker, 'SIGSTOP');
    try {
      const started = await scan(scanRoot);
      expect(started.status, await started.clone().text()).toBe(202);
      expect(await started.json()).toMatchObject({ status: 'BUSY', root: null });
      expect((await getDevice()).drives.find((d) => d.root === root)!.detail).toMatchObject({ status: 'BUSY', root: null, finishedAt: null });
      const again = await expectError(await scan(path.join(scanRoot, 'big')), 409);
      expect(again.message).toBe(`A scan of the drive ${root} is running already: wait for it to finish.`);
    } finally {
      process.kill(worker, 'SIGCONT');
    }

    const detail = await waitFor(async () => {
      const d = (await getDevice()).drives.find((x) => x.root === root)!.detail;
      return d?.status === 'DONE' && d;
    }, 20_000, 'the scan done');
    expect(detail.root).toMatchObject({ path: scanRoot, complete: true, unreadable: 0, others: 0 });
    expect(detail.root!.folders.map((f) => f.name)).toEqual(['big', 'small']);
    expect(detail.root!.folders[0]!.size).toBeGreaterThanOrEqual(1024 * 1024);
    expect(detail.root!.files).toBeGreaterThanOrEqual(5000);
    expect(detail.finishedAt).not.toBeNull();

    expect((await expectError(await scan('nowhere'), 400)).message).toBe("'nowhere' is on none of this device's drives.");
    expect((await expectError(await scan(scanRoot, guest), 403)).code).toBe('FORBIDDEN');
    await s.tc.messaging!.driveScans.settled();

    // Each start is one entry, refused ones too, with the answer the person got (the guest's 403
    // comes from the route's role check, before any action exists to record).
    const audit = await s.tc.api(`/api/audit?device=${device.id}&kind=drive.scan`, { token: admin });
    const scans = (await audit.json()).entries.map((e: { username: string; outcome: string; error: string | null; details: { path: string } }) => [
      e.username,
      e.details.path,
      e.outcome,
      e.error,
    ]);
    expect(scans).toEqual([
      [USER_EMAIL, 'nowhere', 'error', "'nowhere' is on none of this device's drives."],
      [USER_EMAIL, path.join(scanRoot, 'big'), 'error', `A scan of the drive ${root} is running already: wait for it to finish.`],
      [USER_EMAIL, scanRoot, 'ok', null],
    ]);
  });
}

describe('storage on the embedded broker', () => {
  storageSuite(() => embeddedSetup());
});

describe.skipIf(!bin)('storage on Mosquitto with dynamic security', () => {
  storageSuite(() => mosquittoSetup(bin!));
});
