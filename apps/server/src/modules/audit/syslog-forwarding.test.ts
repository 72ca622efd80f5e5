import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema/index.js';
import { startTestConsole } from '../../testing/test-console.js';
import { ADMIN_EMAIL, embeddedSetup, onlineMemberDevice, tearDown, tempDir, USER_EMAIL, type AgentProcess, type MessagingSetup, type OnlineMemberDevice } from '../broker/broker.test-support.js';
import { localhostCertificate, startSyslogReceiver, type SyslogMessage } from './syslog-receiver.test-support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 66: every audit entry also goes to the operator's syslog collector (AUDIT_SYSLOG_URL), as
 * RFC 5424 over TCP, and a collector that was away gets what it missed, in order, none twice.
 */
describe('audit forwarding to syslog', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  let collector: Awaited<ReturnType<typeof startSyslogReceiver>>;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const ids = (ms: SyslogMessage[]) => ms.map((m) => Number(m.params.id));

  beforeAll(async () => {
    collector = await startSyslogReceiver();
    s = await embeddedSetup({ AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${collector.port}` });
    d = await onlineMemberDevice(s, 'syslog box', cleanup);
  }, 60_000);

  afterAll(async () => {
    await tearDown(s, cleanup);
    await collector?.stop();
  });

  it('sends a device create, a command and a sign-in as RFC 5424 messages with who, what, device, organization and outcome', async () => {
    const created = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/device', { organization: d.device.organizationId, name: 'forwarded box', branch: 'PRODUCTION' });
    expect(created.status).toBe(201);
    const ran = await s.tc.api(`/api/device/${d.device.id}/command`, { method: 'POST', token: d.admin, json: { name: 'execute', parameters: [{ name: 'command', value: 'echo hi' }] } });
    expect(ran.status).toBe(200);
    await s.tc.token(USER_EMAIL);

    const [create] = await collector.waitFor((m) => m.msgid === 'device.create' && m.params.device === 'forwarded box');
    expect(create!.raw).toMatch(/^<110>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z localhost fleetlink - device\.create \[fleetlink@32473 id="\d+" kind="device\.create" user="admin@fleetlink\.local"/);
    expect(create!.params).toMatchObject({ user: ADMIN_EMAIL, deviceId: created.body.id, device: 'forwarded box', organizationId: d.device.organizationId, outcome: 'ok' });
    expect(create!.params.organization).toBeTruthy();
    expect(create!.text).toContain("Device created by admin@fleetlink.local (device 'forwarded box'");
    const [command] = await collector.waitFor((m) => m.msgid === 'command' && m.params.deviceId === d.device.id);
    expect(command!.params).toMatchObject({ user: ADMIN_EMAIL, device: 'syslog box', outcome: 'ok' });
    const [signIn] = await collector.waitFor((m) => m.msgid === 'sign-in' && m.params.user === USER_EMAIL);
    expect(signIn!.pri).toBe(110);
    // In the trail's order, each once.
    expect(ids(collector.got)).toEqual([...new Set(ids(collector.got))].sort((a, b) => a - b));
  }, 40_000);

  it('gives a collector that was away what it missed, in order, none twice', async () => {
    await collector.stop();
    const names = ['missed 1', 'missed 2', 'missed 3'];
    for (const name of names) {
      const res = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/device', { organization: d.device.organizationId, name, branch: 'PRODUCTION' });
      expect(res.status).toBe(201);
    }
    // Rounds fail meanwhile (nothing listens), and leave the position where it was.
    await sleep(3500);
    await collector.start();
    const missed = await collector.waitFor((m) => m.msgid === 'device.create' && names.includes(m.params.device ?? ''), 3);
    expect(missed.map((m) => m.params.device)).toEqual(names);
    await sleep(2500);
    expect(ids(collector.got)).toEqual([...new Set(ids(collector.got))].sort((a, b) => a - b));
  }, 40_000);
});

describe('audit forwarding to a TLS collector', () => {
  it('sends over TLS to a collector whose certificate the CA file vouches for', async () => {
    const dir = tempDir('fleetlink-syslog-tls-');
    const certificate = localhostCertificate(dir);
    const collector = await startSyslogReceiver({ tls: certificate });
    const tc = await startTestConsole({ AUDIT_SYSLOG_URL: `tls://localhost:${collector.port}`, AUDIT_SYSLOG_CA_FILE: certificate.certFile });
    try {
      // Forwarding starts after the entries there are when it first runs: wait for that, then sign in.
      await sleep(3000);
      await tc.token(ADMIN_EMAIL);
      const [signIn] = await collector.waitFor((m) => m.msgid === 'sign-in' && m.params.user === ADMIN_EMAIL);
      expect(signIn!.params.outcome).toBe('ok');
    } finally {
      await tc.close();
      await collector.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('audit forwarding with a bounded backlog', () => {
  it('skips the oldest entries past AUDIT_SYSLOG_BACKLOG_MAX, says so first, and sends the newest in order', async () => {
    const collector = await startSyslogReceiver();
    const tc = await startTestConsole({ AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${collector.port}`, AUDIT_SYSLOG_BACKLOG_MAX: '100' });
    try {
      await sleep(2500);
      await collector.stop();
      // 150 entries while the collector is away, as the trail writes them.
      const time = new Date(Date.now() - 3000);
      await tc.database.db.insert(auditEntries).values(Array.from({ length: 150 }, (_, i) => ({ time, kind: 'device.update', username: `n${i}@example.com`, subject: null, details: {}, outcome: 'ok' as const })));
      await sleep(1500);
      await collector.start();
      const got = await collector.waitFor((m) => m.msgid === 'device.update', 100);
      expect(collector.got[0]!.msgid).toBe('audit.skipped');
      expect(collector.got[0]!.text).toMatch(/^About 50 audit entries were not forwarded: the collector was away while more than 100 waited\./);
      expect(got.map((m) => m.params.user)).toEqual(Array.from({ length: 100 }, (_, i) => `n${i + 50}@example.com`));
    } finally {
      await tc.close();
      await collector.stop();
    }
  }, 40_000);
});
