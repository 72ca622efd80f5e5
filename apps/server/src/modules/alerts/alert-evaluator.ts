import { alertLimits, type AlertEventType } from '@fleetlink/contract';
import type { Db, DbExecutor } from '../../db/client.js';
import type { AlertRuleRow, AlertsRepository, Found } from './alerts.repository.js';

/** "1 device" / "5,000 devices". */
const devicesText = (n: number) => (n === 1 ? '1 device' : `${n.toLocaleString('en')} devices`);
const minutesText = (m: number) => (m === 1 ? '1 minute' : `${m.toLocaleString('en')} minutes`);
/** The device by name when the event is about one, the count otherwise (a storm is one summary). */
const one = (found: Found) => (found.count === 1 && found.listed[0] ? `device '${found.listed[0].name}'` : undefined);
const upper = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** What each kind of event says. */
export const summaries = {
  offline: (f: Found, minutes: number) =>
    one(f) ? `${upper(one(f)!)} has been offline for more than ${minutesText(minutes)}.` : `${devicesText(f.count)} have been offline for more than ${minutesText(minutes)}.`,
  online: (f: Found) => (one(f) ? `${upper(one(f)!)} is back online.` : `${devicesText(f.count)} are back online.`),
  driveFull: (f: Found, percent: number) => (one(f) ? `A drive of ${one(f)} is at least ${percent} % full.` : `${devicesText(f.count)} have a drive at least ${percent} % full.`),
  monitor: (f: Found, change: { key: string; value: string | null } | undefined) =>
    one(f) && change ? `Monitor '${change.key}' of ${one(f)} changed to '${change.value ?? ''}'.` : `Monitors changed on ${devicesText(f.count)}.`,
  jobFailed: (f: Found, job: string | undefined) => (one(f) && job ? `Job '${job}' failed on ${one(f)}.` : `Jobs failed on ${devicesText(f.count)}.`),
  updateFailed: (f: Found) => (one(f) ? `The agent update failed on ${one(f)}.` : `The agent update failed on ${devicesText(f.count)}.`),
};

/**
 * Things that happened (a job result, a rollout device's failure, an audit entry) are read up to
 * this long ago: their time is set just before their transaction commits, so the newest seconds
 * may still be coming.
 */
const SETTLE_MS = 5000;

/**
 * Evaluates the alert rules (issue 66), a round per tick on one console at a time (a PeriodicTask),
 * each rule in its own transaction. What crossed a rule's condition since the last round makes one
 * event, however many devices it is (an organization's 5,000 devices dropped by a broker restart are
 * one "5,000 devices" alert per rule, not 5,000); a device that flaps never stays offline for the
 * rule's minutes, so it makes none until it really is gone, then one. What a rule said is a row
 * (alert_rule_states, or the rule's cursor for things that happened), so a second console, or this
 * one after a restart, says nothing twice.
 */
export class AlertEvaluator {
  constructor(
    private readonly o: {
      db: Db;
      repo: AlertsRepository;
      /** Told who has new alerts in the bell (their pages hear it live). */
      heard: (usernames: string[]) => void;
      now?: () => Date;
    },
  ) {}

  async tick(): Promise<void> {
    const listeners = new Set<string>();
    for (const rule of await this.o.repo.enabledRules()) for (const u of await this.evaluate(rule)) listeners.add(u);
    if (listeners.size) this.o.heard([...listeners]);
  }

  /** Answers who hears its events in the console. */
  private async evaluate(rule: AlertRuleRow): Promise<string[]> {
    const { repo } = this.o;
    const now = this.o.now?.() ?? new Date();
    return this.o.db.transaction(async (tx) => {
      const listeners: string[] = [];
      // Most rounds say nothing: the organization's name is read only when the rule speaks.
      const say = async (type: AlertEventType, summary: string, found: Found) => {
        const made = await repo.addEvent(tx, rule, { type, summary, body: await repo.eventBody(tx, rule, found) }, now);
        listeners.push(...made.listeners);
      };
      const c = rule.condition;
      switch (c.kind) {
        case 'DEVICE_OFFLINE': {
          // Back online first: a device that went and came back between two rounds is neither.
          const back = await repo.offlineLeave(tx, rule);
          if (back.count) await say('device.online', summaries.online(back), back);
          await repo.offlineNoted(tx, rule, now);
          const gone = await repo.offlineEnter(tx, rule, c.minutes, now);
          if (gone.count) await say('device.offline', summaries.offline(gone, c.minutes), gone);
          break;
        }
        case 'DRIVE_FULL': {
          await repo.driveFullLeave(tx, rule, c.percent);
          const full = await repo.driveFullEnter(tx, rule, c.percent, now);
          if (full.count) await say('drive.full', summaries.driveFull(full, c.percent), full);
          break;
        }
        case 'MONITOR_CHANGED': {
          const changes = await repo.monitorChanges(tx, rule, c.monitor, now);
          const found = await repo.found(tx, changes.map((ch) => ch.deviceId));
          if (found.count) await say('monitor.changed', summaries.monitor(found, changes.length === 1 ? changes[0] : undefined), found);
          break;
        }
        default:
          await this.happened(tx, rule, now, say);
      }
      return listeners;
    });
  }

  /** Conditions on things that happened since the rule's cursor: each read once, then the cursor moves on. */
  private async happened(tx: DbExecutor, rule: AlertRuleRow, now: Date, say: (type: AlertEventType, summary: string, found: Found) => Promise<void>): Promise<void> {
    const { repo } = this.o;
    const to = new Date(now.getTime() - SETTLE_MS);
    if (to <= rule.cursorAt) return;
    const from = rule.cursorAt;
    switch (rule.condition.kind) {
      case 'JOB_FAILED': {
        const failures = await repo.jobFailures(tx, rule, from, to);
        const found = await repo.found(tx, failures.map((f) => f.deviceId));
        const jobNames = new Set(failures.map((f) => f.job));
        if (found.count) await say('job.failed', summaries.jobFailed(found, jobNames.size === 1 ? failures[0]!.job : undefined), found);
        break;
      }
      case 'UPDATE_FAILED': {
        const failed = await repo.updateFailures(tx, rule, from, to);
        const found = await repo.found(tx, failed.map((f) => f.id));
        if (found.count) await say('update.failed', summaries.updateFailed(found), found);
        break;
      }
      case 'ROLLOUT_HALTED': {
        for (const halt of (await repo.rolloutHalts(tx, from, to)).slice(0, alertLimits.devicesListed)) {
          const d = (halt.details ?? {}) as { branch?: string; version?: string; wave?: number; reason?: string };
          await say('rollout.halted', `The rollout of ${d.branch ?? ''} ${d.version ?? ''} halted at wave ${d.wave ?? '?'}: ${d.reason ?? 'its devices failed'}.`, { count: 0, listed: [] });
        }
        break;
      }
    }
    await repo.setCursor(tx, rule.id, to);
  }
}
