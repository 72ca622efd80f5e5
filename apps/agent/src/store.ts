import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentServer } from '@fleetlink/contract';

/** What the agent keeps between runs: it never needs the installation key again. */
export interface AgentState {
  consoleUrl: string;
  deviceId: string;
  mqtt: { username: string; password: string };
  /** The message server it connects to, and all it was assigned. */
  messageServer: Pick<AgentServer, 'id' | 'url' | 'trustStore'>;
  servers: AgentServer[];
  heartbeatSeconds: number;
  metricsSeconds: number;
}

export const defaultDataDir = (deviceId: string) => path.join(os.homedir(), '.fleetlink-agent', deviceId);

export class StateStore {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'agent.json');
  }

  load(): AgentState | undefined {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as AgentState;
    } catch {
      return undefined;
    }
  }

  /** Written atomically and readable by the agent's user only: it holds the MQTT password. */
  save(state: AgentState): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
    try {
      chmodSync(this.file, 0o600);
    } catch {
      // Not every filesystem has modes (Windows).
    }
  }
}
