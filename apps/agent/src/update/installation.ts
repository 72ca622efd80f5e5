import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentProperty } from '@fleetlink/contract';

/**
 * The installation folder the launcher (launcher/fleetlink-agent, a shell script) runs the agent
 * from, and the files the two talk through (its header lists them). Absent when the agent runs
 * without that launcher (from a checkout, or `npx`): then there is no self-update.
 */
export class Installation {
  constructor(
    readonly home: string,
    readonly launcherVersion: string,
    /** The exit code that asks the launcher to switch to the bundle named in `next`. */
    readonly updateCode: number,
  ) {}

  /** The launcher's, from the environment it sets; undefined without one. */
  static fromEnvironment(env = process.env): Installation | undefined {
    const { FLEETLINK_AGENT_HOME: home, FLEETLINK_LAUNCHER_VERSION: version, FLEETLINK_AGENT_UPDATE_CODE: code } = env;
    if (!home || !version || !Number(code)) return undefined;
    return new Installation(home, version, Number(code));
  }

  get bundlesDir() {
    return path.join(this.home, 'bundles');
  }

  /** A file's first line, or undefined. */
  read(name: 'current' | 'previous' | 'trial' | 'next'): string | undefined {
    try {
      return readFileSync(path.join(this.home, name), 'utf8').split('\n')[0]!.trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Written whole or not at all: the launcher may read it at any moment. */
  write(name: 'next', value: string) {
    const file = path.join(this.home, name);
    writeFileSync(`${file}.tmp`, `${value}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /** The last rollback the launcher made: the version it left, and why. */
  failure(): { version: string; reason: string } | undefined {
    try {
      const [version, reason] = readFileSync(path.join(this.home, 'update-failed'), 'utf8').split('\n');
      return version ? { version, reason: reason || 'it did not come online' } : undefined;
    } catch {
      return undefined;
    }
  }

  clearFailure() {
    rmSync(path.join(this.home, 'update-failed'), { force: true });
  }

  /**
   * What the launcher wrote when it restarted a crashed or killed agent: how often in all, how the
   * agent last ended, and when. Undefined before the first such restart.
   */
  restarts(): { count: number; lastExit: string; at: string } | undefined {
    try {
      const [count, lastExit, at] = readFileSync(path.join(this.home, 'restarts'), 'utf8').split('\n');
      return Number(count) > 0 && lastExit ? { count: Number(count), lastExit, at: at ?? '' } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The restarts as the agent's properties (AgentProperty.Restarts and the two after it); none before the first. */
  restartProperties(): Record<string, string> {
    const r = this.restarts();
    return r ? { [AgentProperty.Restarts]: String(r.count), [AgentProperty.LastExit]: r.lastExit, [AgentProperty.LastExitTime]: r.at } : {};
  }

  /** The bundle `version` is on trial: it ends the trial (it came online), so the launcher keeps it. */
  confirm(version: string): boolean {
    if (this.read('trial') !== version) return false;
    rmSync(path.join(this.home, 'trial'), { force: true });
    this.clearFailure();
    return true;
  }
}
