import { randomBytes } from 'node:crypto';
import { alertInboxSchema, alertRuleSavedSchema, AuditKind, webhookDeliveryListSchema, type AlertRuleFormInput, type AlertRuleSaved } from '@fleetlink/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents, auditEntries, devices, monitors, releaseRollouts, releases, rolloutDevices } from '../../db/schema/index.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.js';
import { executeForm, jobsClient } from '../jobs/jobs.test-support.js';
import { openLive } from '../live/live.test-support.js';
import {
  ADMIN_EMAIL,
  embeddedSetup,
  memberDevice,
  onlineMemberDevice,
  spawnAgent,
  tearDown,
  USER_EMAIL,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
  type OnlineMemberDevice,
} from '../broker/broker.test-support.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { AlertSender } from './alert-sender.js';
import { AlertsRepository } from './alerts.repository.js';
import { tellOwnersWebhookOff } from './webhook-off.js';
import { startWebhookReceiver, verifySignature } from './webhook-receiver.test-support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** 3 seconds: the rules' "offline for more than N minutes", shortened (fractions of a minute are allowed). */
const MINUTES = 0.05;
const TICK_MS = 200;

/**
 * Issue 66: alert rules through the real console, with a real agent killed and started again, and
 * simulated devices (rows set offline) for flapping and storms; a webhook receiver on loopback
 * (private targets allowed, as an operator with a receiver on their own network would).
 */
describe('alerts', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let sink: SmtpSink;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const db = () => s.tc.database.db;
  const rulesOf = (org: string) => `/api/organization/${org}/alert-rules`;
  const form = (o: Partial<AlertRuleFormInput> = {}): AlertRuleFormInput => ({
    name: `Offline ${randomBytes(3).toString('hex')}`,
    condition: { kind: 'DEVICE_OFFLINE', minutes: MINUTES },
    webhookUrl: receiver.url,
    ...o,
  });
  const createRule = async (org: string, o: Partial<AlertRuleFormInput> = {}): Promise<AlertRuleSaved> => {
    const res = await s.tc.call(ADMIN_EMAIL, 'POST', rulesOf(org), form(o));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return alertRuleSavedSchema.parse(res.body);
  };
  /** Simulated devices: rows of `org` that were last heard `agoMs` ago and are offline now. */
  const goOffline = (ids: string[], agoMs = 0) =>
    db()
      .update(devices)
      .set({ online: false, lastResponse: new Date(Date.now() - agoMs) })
      .where(inArray(devices.id, ids));
  const goOnline = (ids: string[]) => db().update(devices).set({ online: true, lastResponse: new Date() }).where(inArray(devices.id, ids));
  const eventsOf = (ruleId: string) => db().select().from(alertEvents).where(eq(alertEvents.ruleId, ruleId)).orderBy(alertEvents.createdAt);

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await embeddedSetup({
      ALERT_TICK_MS: String(TICK_MS),
      ALERT_RETRY_SECONDS: '0.5',
      ALERT_WEBHOOK_PRIVATE_TARGETS: 'true',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      CONTACT_TO: 'operator@example.com',
      CONTACT_FROM: 'Fleetlink <console@example.com>',
    });
    d = await onlineMemberDevice(s, 'alerts box', cleanup);
    receiver = await startWebhookReceiver();
  }, 60_000);

  afterEach(() => receiver.reset());

  afterAll(async () => {
    await receiver?.close();
    await tearDown(s, cleanup);
    await sink?.close();
  });

  it('posts a signed "offline" within the rule\'s minutes + 5 s of the agent being killed, and "back online" when it returns', async () => {
    const rule = await createRule(d.device.organizationId);
    expect(rule.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const killedAt = Date.now();
    await d.agent.kill();
    const [offline] = await receiver.waitFor(1, MINUTES * 60_000 + 5000 + 5000);
    expect(offline!.at - killedAt).toBeLessThan(MINUTES * 60_000 + 5000);
    expect(offline!.body).toMatchObject({
      type: 'device.offline',
      summary: `Device 'alerts box' has been offline for more than 0.05 minutes.`,
      rule: { id: rule.id, name: rule.name },
      organization: { id: d.device.organizationId },
      count: 1,
      devices: [{ id: d.device.id, name: 'alerts box' }],
    });
    expect(verifySignature(offline!.signature, offline!.raw, rule.webhookSecret!)).toBe(true);
    expect(verifySignature(offline!.signature, offline!.raw, 'whsec_another')).toBe(false);
    // A replay: the same body and signature, judged minutes later, is refused by its time.
    expect(verifySignature(offline!.signature, offline!.raw, rule.webhookSecret!, -1)).toBe(false);

    // The same agent starts again: its data folder (the last the suite made) holds its credentials.
    const again = spawnAgent({ server: s.tc.url, device: d.device.id, dataDir: cleanup.dirs.at(-1)! });
    cleanup.agents.push(again);
    const [, online] = await receiver.waitFor(2);
    expect(online!.body).toMatchObject({ type: 'device.online', summary: `Device 'alerts box' is back online.`, count: 1 });
    expect(verifySignature(online!.signature, online!.raw, rule.webhookSecret!)).toBe(true);
    await sleep(1000);
    expect(receiver.got).toHaveLength(2);
    await s.tc.call(ADMIN_EMAIL, 'DELETE', `${rulesOf(d.device.organizationId)}/${rule.id}`);
  }, 60_000);

  it('sends the same event again after a 500, and no more once it got a 200; the delivery log shows both tries', async () => {
    const dev = await memberDevice(db(), 'retried box');
    await goOnline([dev.id]);
    const rule = await createRule(dev.organizationId);
    receiver.answer(500);
    await goOffline([dev.id]);
    const [first, second] = await receiver.waitFor(2, 15_000);
    expect(second!.body.id).toBe(first!.body.id);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(400);
    await sleep(2000);
    expect(receiver.got).toHaveLength(2);
    const log = await s.tc.call(ADMIN_EMAIL, 'GET', `${rulesOf(dev.organizationId)}/${rule.id}/deliveries`);
    expect(log.status).toBe(200);
    const [delivery] = webhookDeliveryListSchema.parse(log.body).items;
    expect(delivery).toMatchObject({ type: 'device.offline', state: 'DELIVERED', attempts: 2, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(delivery!.lastLatencyMs).toBeGreaterThanOrEqual(0);
  }, 30_000);

  it('makes one alert of a device that flaps ten times before it stays offline', async () => {
    const dev = await memberDevice(db(), 'flapping box');
    await goOnline([dev.id]);
    const rule = await createRule(dev.organizationId);
    for (let i = 0; i < 10; i++) {
      await goOffline([dev.id]);
      await sleep(150);
      await goOnline([dev.id]);
      await sleep(150);
    }
    await goOffline([dev.id]);
    await receiver.waitFor(1, 10_000);
    await sleep(2000);
    expect(receiver.got.map((g) => g.body.type)).toEqual(['device.offline']);
    expect(await eventsOf(rule.id)).toHaveLength(1);
  }, 30_000);

  it('makes one summary per rule when 500 devices go offline at once', async () => {
    const first = await memberDevice(db(), 'fleet 000');
    const org = first.organizationId;
    const rows = Array.from({ length: 499 }, (_, i) => ({ organizationId: org, name: `fleet ${String(i + 1).padStart(3, '0')}`, installationKey: randomBytes(8).toString('hex') }));
    const ids = [first.id, ...(await db().insert(devices).values(rows).returning({ id: devices.id })).map((r) => r.id)];
    await goOnline(ids);
    const a = await createRule(org);
    const b = await createRule(org, { webhookUrl: null });
    await goOffline(ids);
    const [got] = await receiver.waitFor(1, 10_000);
    expect(got!.body).toMatchObject({ type: 'device.offline', summary: '500 devices have been offline for more than 0.05 minutes.', count: 500 });
    expect(got!.body.devices).toHaveLength(100);
    expect(got!.body.devices[0]!.name).toBe('fleet 000');
    await waitFor(async () => (await eventsOf(b.id)).length === 1, 5000, 'the second rule\'s event');
    await sleep(1000);
    expect(receiver.got).toHaveLength(1);
    expect((await eventsOf(a.id)).map((e) => e.summary)).toEqual(['500 devices have been offline for more than 0.05 minutes.']);
    expect(await eventsOf(b.id)).toHaveLength(1);
  }, 30_000);

  it('tests a webhook at once and says how the receiver answered', async () => {
    const org = d.device.organizationId;
    const rule = await createRule(org);
    receiver.answer(503);
    const test = await s.tc.call(ADMIN_EMAIL, 'POST', `${rulesOf(org)}/${rule.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ type: 'test', state: 'FAILED', attempts: 1, lastStatus: 503, lastError: 'The receiver answered 503.', nextAttemptAt: null });
    const ok = await s.tc.call(ADMIN_EMAIL, 'POST', `${rulesOf(org)}/${rule.id}/test`);
    expect(ok.body).toMatchObject({ type: 'test', state: 'DELIVERED', lastStatus: 200, summary: `A test of the alert rule '${rule.name}', sent by ${ADMIN_EMAIL}.` });
    expect(receiver.got.map((g) => verifySignature(g.signature, g.raw, rule.webhookSecret!))).toEqual([true, true]);
    const none = await createRule(org, { webhookUrl: null });
    expect(await s.tc.call(ADMIN_EMAIL, 'POST', `${rulesOf(org)}/${none.id}/test`)).toMatchObject({
      status: 409,
      body: { message: 'This rule has no webhook to test: add a webhook URL first.' },
    });
  });

  it('refuses webhooks to the console itself and to link-local or metadata addresses', async () => {
    const org = d.device.organizationId;
    for (const [url, message] of [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local, metadata or reserved address: a webhook cannot be sent there.'],
      ['http://[fe80::1]/hook', 'fe80::1 is a link-local, metadata or reserved address: a webhook cannot be sent there.'],
      [`${s.tc.url}/api/devices`, 'The webhook URL cannot be the console itself.'],
      ['ftp://example.com/hook', 'The webhook URL must be an http:// or https:// address.'],
      ['https://me:pw@example.com/hook', 'The webhook URL cannot hold a user name or password: the signature proves the sender.'],
    ] as const) {
      const res = await s.tc.call(ADMIN_EMAIL, 'POST', rulesOf(org), form({ webhookUrl: url }));
      expect(res.status, url).toBe(400);
      expect((res.body as { message: string }).message, url).toContain(message);
    }
  });

  it('keeps rules to the organization\'s managers, and never shows a secret again', async () => {
    const org = d.device.organizationId;
    const rule = await createRule(org);
    const list = await s.tc.call(ADMIN_EMAIL, 'GET', rulesOf(org));
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(rule.webhookSecret!);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect((await s.tc.call(USER_EMAIL, 'GET', rulesOf(org))).status).toBe(403);
    expect((await s.tc.call(USER_EMAIL, 'POST', `${rulesOf(org)}/${rule.id}/test`)).status).toBe(403);
    const other = await memberDevice(db(), 'elsewhere');
    await db().execute(sql`delete from organization_members where organization_id = ${other.organizationId}`);
    expect((await s.tc.call(ADMIN_EMAIL, 'GET', rulesOf(other.organizationId))).status).toBe(404);
    // Another organization's rule id under this one's path names nothing.
    expect((await s.tc.call(ADMIN_EMAIL, 'DELETE', `${rulesOf(d.device.organizationId)}/${(await createRule((await memberDevice(db(), 'x')).organizationId)).id}`)).status).toBe(404);

    // Same URL: same secret (none in the answer); a new URL: a new one, shown once.
    const same = await s.tc.call(ADMIN_EMAIL, 'PUT', `${rulesOf(org)}/${rule.id}`, form({ name: 'Renamed' }));
    expect(same.body).toMatchObject({ name: 'Renamed', webhookSecret: null });
    const moved = await s.tc.call(ADMIN_EMAIL, 'PUT', `${rulesOf(org)}/${rule.id}`, form({ webhookUrl: `${receiver.url}?v=2` }));
    expect((moved.body as AlertRuleSaved).webhookSecret).toMatch(/^whsec_/);
    expect((moved.body as AlertRuleSaved).webhookSecret).not.toBe(rule.webhookSecret);
    const audit = await db().select().from(auditEntries).where(eq(auditEntries.organizationId, org));
    expect(audit.map((e) => e.kind)).toEqual(expect.arrayContaining([AuditKind.AlertRuleCreate, AuditKind.AlertRuleUpdate]));
    expect(JSON.stringify(audit)).not.toContain('whsec_');
  });

  it("mails an alert, and rings the organization's managers' bells, live, until they read it", async () => {
    const dev = await memberDevice(db(), 'mailed box');
    await goOnline([dev.id]);
    await s.tc.signIn(ADMIN_EMAIL, USER_EMAIL);
    const live = await openLive(s.tc.url, await s.tc.token(ADMIN_EMAIL));
    const before = sink.mails.length;
    const rule = await createRule(dev.organizationId, { webhookUrl: null, notify: { console: true, emails: ['ops@example.com'] } });
    const from = live.messages.length;
    await goOffline([dev.id]);
    await live.next((m) => m.type === 'alerts', 10_000, from);
    const bell = alertInboxSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', '/api/alerts')).body);
    const [notice] = bell.items.filter((i) => i.rule.id === rule.id);
    expect(notice).toMatchObject({ type: 'device.offline', summary: "Device 'mailed box' has been offline for more than 0.05 minutes.", read: false, organization: { id: dev.organizationId } });
    expect(bell.unread).toBeGreaterThanOrEqual(1);
    // A USER member of the organization does not manage it, and hears nothing.
    const theirs = alertInboxSchema.parse((await s.tc.call(USER_EMAIL, 'GET', '/api/alerts')).body);
    expect(theirs.items.filter((i) => i.rule.id === rule.id)).toEqual([]);

    await waitFor(() => sink.mails.length > before, 10_000, 'the mail');
    const mail = sink.mails.at(-1)!;
    expect(mail.to).toEqual(['ops@example.com']);
    // Unfolded: long header lines continue on the next, quoted-printable lines end in '='.
    const text = mail.raw.replace(/=\r?\n/g, '').replace(/\r?\n /g, ' ');
    expect(text).toContain("Subject: [Fleetlink] Device 'mailed box' has been offline for more than 0.05 minutes.");
    expect(text).toContain(`/devices/${dev.id}`);
    const log = webhookDeliveryListSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', `${rulesOf(dev.organizationId)}/${rule.id}/deliveries`)).body);
    expect(log.items).toMatchObject([{ channel: 'EMAIL', target: 'ops@example.com', state: 'DELIVERED', lastStatus: 250 }]);

    const read = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/alerts/read', {});
    expect(alertInboxSchema.parse(read.body).unread).toBe(0);
    live.close();

    // No longer a manager there: its alerts leave their bell.
    await db().execute(sql`update organization_members set role = 'USER' where organization_id = ${dev.organizationId} and email = ${ADMIN_EMAIL}`);
    const after = alertInboxSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', '/api/alerts')).body);
    expect(after.items.filter((i) => i.rule.id === rule.id)).toEqual([]);
  }, 30_000);

  it('says a drive is nearly full once, until it is not and is again', async () => {
    const dev = await memberDevice(db(), 'full box');
    const drives = (freeSpace: number) => db().update(devices).set({ drives: [{ root: '/', totalSpace: 1000, freeSpace }, { root: '/boot', totalSpace: 100, freeSpace: 90 }] }).where(eq(devices.id, dev.id));
    await drives(500);
    const rule = await createRule(dev.organizationId, { condition: { kind: 'DRIVE_FULL', percent: 90 } });
    await drives(50);
    const [full] = await receiver.waitFor(1, 10_000);
    expect(full!.body).toMatchObject({ type: 'drive.full', summary: "A drive of device 'full box' is at least 90 % full.", count: 1 });
    await sleep(1000);
    expect(receiver.got).toHaveLength(1);
    await drives(500);
    await sleep(1000);
    await drives(10);
    await receiver.waitFor(2, 10_000);
    expect(await eventsOf(rule.id)).toHaveLength(2);
  }, 30_000);

  it("says when a monitor's value changed, not its first value", async () => {
    const dev = await memberDevice(db(), 'watched box');
    await db().insert(monitors).values({ deviceId: dev.id, name: 'nginx', type: 'VERSION', path: 'nginx', value: 'running' });
    await createRule(dev.organizationId, { condition: { kind: 'MONITOR_CHANGED', monitor: 'nginx' } });
    await sleep(1000);
    expect(receiver.got).toEqual([]);
    await db().update(monitors).set({ value: 'stopped' }).where(eq(monitors.deviceId, dev.id));
    const [changed] = await receiver.waitFor(1, 10_000);
    expect(changed!.body).toMatchObject({ type: 'monitor.changed', summary: "Monitor 'nginx' of device 'watched box' changed to 'stopped'.", devices: [{ id: dev.id }] });
  }, 30_000);

  it('says a job failed on a device, once', async () => {
    const rule = await createRule(d.device.organizationId, { condition: { kind: 'JOB_FAILED' } });
    const jobs = jobsClient(s.tc, await s.tc.token(ADMIN_EMAIL));
    await jobs.create(executeForm('exit 3', { kind: 'devices', ids: [d.device.id] }));
    const [failed] = await receiver.waitFor(1, 20_000);
    expect(failed!.body).toMatchObject({ type: 'job.failed', summary: "Job 'execute' failed on device 'alerts box'.", rule: { id: rule.id } });
    await sleep(1500);
    expect(receiver.got).toHaveLength(1);
  }, 40_000);

  it("says an agent update failed on a rollout's device", async () => {
    const dev = await memberDevice(db(), 'updated box');
    await createRule(dev.organizationId, { condition: { kind: 'UPDATE_FAILED' } });
    // A rollout (halted: its runner leaves it be) whose device failed its update, as the runner records it.
    const [release] = await db().insert(releases).values({ branch: 'ACCEPTANCE', version: `7.${Date.now() % 1000}.0` }).returning();
    await db().insert(releaseRollouts).values({
      releaseId: release!.id,
      state: 'HALTED',
      waves: [{ unit: 'percent', amount: 100 }],
      boundaries: [1],
      waitMinutes: 30,
      failurePercent: 5,
      failureCount: 2,
      wave: 1,
      accepted: [],
      createdBy: ADMIN_EMAIL,
    });
    await db().insert(rolloutDevices).values({ releaseId: release!.id, deviceId: dev.id, wave: 1, state: 'failed', reason: 'rolled back', changedAt: new Date() });
    const [failed] = await receiver.waitFor(1, 15_000);
    expect(failed!.body).toMatchObject({ type: 'update.failed', summary: "The agent update failed on device 'updated box'.", devices: [{ id: dev.id }] });
  }, 30_000);

  it("keeps the realm's rules to realm ADMINs: a rollout halted reaches their bell", async () => {
    await s.tc.signIn(ADMIN_EMAIL);
    expect((await s.tc.call(USER_EMAIL, 'GET', '/api/alert-rules')).status).toBe(403);
    const wrong = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/alert-rules', form());
    expect(wrong.status).toBe(400);
    expect((wrong.body as { message: string }).message).toContain("The realm's rules are about the whole fleet");
    const misplaced = await s.tc.call(ADMIN_EMAIL, 'POST', rulesOf(d.device.organizationId), form({ condition: { kind: 'ROLLOUT_HALTED' } }));
    expect(misplaced.status).toBe(400);
    const created = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/alert-rules', form({ name: 'Halts', condition: { kind: 'ROLLOUT_HALTED' } }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // As the rollout runner writes it.
    await db().insert(auditEntries).values({
      time: new Date(),
      kind: AuditKind.RolloutHalt,
      details: { branch: 'PRODUCTION', version: '2.0.0', wave: 2, failed: 3, devices: 40, reason: '3 of 40 devices failed' },
      outcome: 'error',
      error: '3 of 40 devices failed',
    });
    const [halted] = await receiver.waitFor(1, 15_000);
    expect(halted!.body).toMatchObject({ type: 'rollout.halted', summary: 'The rollout of PRODUCTION 2.0.0 halted at wave 2: 3 of 40 devices failed.', organization: null });
    const bell = alertInboxSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', '/api/alerts')).body);
    expect(bell.items.map((i) => i.type)).toContain('rollout.halted');
  }, 30_000);

  it('switches a webhook off after 24 hours of failures, and tells its owners in their bell', async () => {
    const dev = await memberDevice(db(), 'unheard box');
    // Not enabled: nothing but this test's sender, at its own times, works on the rule.
    const saved = await createRule(dev.organizationId, { enabled: false, webhookUrl: 'http://127.0.0.1:1/hook' });
    const repo = new AlertsRepository(db());
    const rule = (await repo.get(dev.organizationId, saved.id))!;
    let now = new Date(Date.now() + 3600_000);
    const sender = new AlertSender({
      repo,
      box: s.tc.box,
      audit: new AuditTrail(new AuditRepository(db()), console),
      consoleUrl: s.tc.url,
      retrySeconds: 0.5,
      allowPrivate: true,
      switchedOff: tellOwnersWebhookOff(db(), repo, s.tc.messaging!.live),
      now: () => now,
    });
    const body = { rule: { id: rule.id, name: rule.name }, organization: null, count: 0, devices: [] };
    await db().transaction((tx) => repo.addEvent(tx, rule, { type: 'device.offline', summary: 'An hour from now.', body }, now));
    await sender.tick();
    expect((await repo.get(dev.organizationId, rule.id))!.webhookFailingSince).toEqual(now);
    now = new Date(now.getTime() + 25 * 3600_000);
    await sender.tick();
    const off = (await s.tc.call(ADMIN_EMAIL, 'GET', rulesOf(dev.organizationId))).body as { items: { id: string; webhook: { disabledAt: string | null } }[] };
    expect(off.items.find((r) => r.id === rule.id)!.webhook.disabledAt).toBe(now.toISOString());
    const log = webhookDeliveryListSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', `${rulesOf(dev.organizationId)}/${rule.id}/deliveries`)).body);
    expect(log.items).toMatchObject([{ state: 'FAILED', attempts: 2, lastStatus: null, nextAttemptAt: null }]);
    expect(log.items[0]!.lastError).toMatch(/^Could not reach the receiver: ECONNREFUSED\.$|switched off/);
    const bell = alertInboxSchema.parse((await s.tc.call(ADMIN_EMAIL, 'GET', '/api/alerts')).body);
    const told = bell.items.find((i) => i.rule.id === rule.id && i.type === 'webhook.off');
    expect(told).toMatchObject({ read: false, organization: { id: dev.organizationId } });
    expect(told!.summary).toContain(`The webhook of the alert rule '${rule.name}' was switched off: every delivery to http://127.0.0.1:1 failed for 24 hours`);
    const [entry] = await db().select().from(auditEntries).where(sql`${auditEntries.kind} = ${AuditKind.AlertWebhookOff} and ${auditEntries.organizationId} = ${dev.organizationId}`);
    expect(entry!.details).toMatchObject({ rule: rule.name, url: 'http://127.0.0.1:1' });
  }, 30_000);
});
