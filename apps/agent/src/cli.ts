import { readFileSync } from 'node:fs';
import { AGENT_KEY_VARIABLE } from '@fleetlink/contract';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { Agent } from './agent.js';
import type { EnrollmentProof } from './enroll.js';
import { retryEnrollment, type RetryOptions } from './enrollment-loop.js';
import { compactWhenIdle } from './idle-compaction.js';
import { log } from './log.js';
import { defaultDataDir, StateStore, type AgentState } from './store.js';
import { Installation } from './update/installation.js';
import { AGENT_VERSION } from './version.js';

const USAGE = `Usage: FLEETLINK_AGENT_KEY=<installation key> fleetlink-agent run --server <console url> --device <id> [--data-dir <dir>]
       fleetlink-agent run --server <console url> --device <id> --key-file <file> [--data-dir <dir>]
       fleetlink-agent release --device <id> [--data-dir <dir>]   the release this device should run

  --server    the Fleetlink console, e.g. https://fleetlink.example.com
  --device    the device id (Install page)
  FLEETLINK_AGENT_KEY, or --key-file <file> (- reads it from standard input)
              the installation key (Install page), needed only for the first run, and after a
              manager reset the key; --key=<key> works too, but shows it to every user of
              this machine (ps)
  --data-dir  where the agent keeps its credentials (default ~/.fleetlink-agent/<device id>)
`;

/**
 * The installation key: FLEETLINK_AGENT_KEY or --key-file, where `ps` does not show it; a --key given
 * all the same (older instructions) still counts, with a warning.
 */
function keyOf(values: { key?: string; 'key-file'?: string }): string | undefined {
  if (values.key) process.stderr.write(`The installation key on the command line is visible to every user of this machine (ps): give it in ${AGENT_KEY_VARIABLE} or --key-file next time.\n`);
  const file = values['key-file'];
  // The file is read only when nothing gave the key before it: `-` would otherwise wait on a terminal.
  return values.key || process.env[AGENT_KEY_VARIABLE] || (file ? readFileSync(file === '-' ? 0 : file, 'utf8').trim() : undefined) || undefined;
}

/**
 * Enrolls with what proves the device (the key on a first run; its MQTT password, and the key if
 * given, when it renews), retrying while the console is away; saves and answers the new state.
 */
async function enrollUntilDone(server: string, device: string, proof: EnrollmentProof, store: StateStore, o: RetryOptions): Promise<AgentState | undefined> {
  // Loaded on demand: a running agent that already has its credentials never carries it.
  const { enroll, EnrollmentRefused } = await import('./enroll.js');
  const res = await retryEnrollment(() => enroll(server, device, proof), (err) => err instanceof EnrollmentRefused, o);
  if (!res) return undefined;
  const message = res.servers.find((s) => s.type === 'MESSAGE')!;
  const state: AgentState = {
    consoleUrl: server,
    deviceId: res.deviceId,
    mqtt: res.mqtt,
    messageServer: { id: message.id, url: message.url, trustStore: message.trustStore },
    servers: res.servers,
    heartbeatSeconds: res.heartbeatSeconds,
    metricsSeconds: res.metricsSeconds,
  };
  store.save(state);
  log('info', 'enrolled', { device, server: message.url });
  return state;
}

async function run(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      device: { type: 'string' },
      key: { type: 'string' },
      'key-file': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  if (!values.server || !values.device) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  // The installed launcher passes it in the environment, where `ps` does not show it; the commands
  // the agent runs do not inherit it.
  try {
    values.key = keyOf(values);
  } catch (err) {
    process.stderr.write(`The installation key could not be read from ${values['key-file']}: ${(err as Error).message}\n`);
    process.exit(2);
  }
  delete process.env[AGENT_KEY_VARIABLE];
  const server = values.server.replace(/\/$/, '');
  const store = new StateStore(path.resolve(values['data-dir'] ?? defaultDataDir(values.device)));
  let state = store.load();
  if (!state || state.deviceId !== values.device || state.consoleUrl !== server) {
    if (!values.key) {
      process.stderr.write(`This agent is not enrolled yet: give the installation key from the device Install page in FLEETLINK_AGENT_KEY (or --key-file).\n`);
      process.exit(2);
    }
    // A refusal ends a first run: the key is wrong, used, or for another device.
    state = (await enrollUntilDone(server, values.device, { key: values.key }, store, { onRefusal: 'end' }))!;
  }
  let stopping = false;
  const { key } = values;
  // The installed launcher's folder (launcher/fleetlink-agent): self-update happens only under it.
  const installation = Installation.fromEnvironment();
  // Set by the launchers (bin/supervise.mjs, launcher/fleetlink-agent), which start it again when it exits with this code.
  const restartCode = Number(process.env.FLEETLINK_AGENT_RESTART_CODE) || undefined;
  const stopAndExit = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Saying goodbye to a broker that does not answer must not keep the agent from ending.
    setTimeout(() => process.exit(code), 5000).unref();
    await agent.stop();
    process.exit(code);
  };
  // When the broker refuses its account, the agent renews it with its own password (and the key,
  // if it was given: a reset key is how a manager lets a reinstalled agent in again).
  // The renewal ends too when the broker takes the agent back meanwhile (its account restored).
  const agent: Agent = new Agent(
    state,
    store,
    (current) =>
      enrollUntilDone(server, current.deviceId, { password: current.mqtt.password, key }, store, { onRefusal: 'retry', stopped: () => stopping || agent.connected }),
    restartCode ? () => stopAndExit(restartCode) : undefined,
    installation && { installation, handOver: () => stopAndExit(installation.updateCode) },
  );
  agent.start();
  compactWhenIdle();
  log('info', 'agent running', { version: AGENT_VERSION, device: state.deviceId, pid: process.pid });
  process.on('SIGTERM', () => void stopAndExit(0));
  process.on('SIGINT', () => void stopAndExit(0));
  // The launcher is gone (killed): nothing would restart or stop this agent, so it stops now.
  process.on('disconnect', () => void stopAndExit(0));
}

/** `release`: asks the console, as the enrolled device, which release it should run. */
async function release(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { device: { type: 'string' }, 'data-dir': { type: 'string' } } });
  if (!values.device) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const state = new StateStore(path.resolve(values['data-dir'] ?? defaultDataDir(values.device))).load();
  if (!state || state.deviceId !== values.device) {
    process.stderr.write('This agent is not enrolled yet: run it once with its installation key first (FLEETLINK_AGENT_KEY or --key-file).\n');
    process.exit(2);
  }
  const { fetchRelease, describeRelease } = await import('./update/release-check.js');
  process.stdout.write(describeRelease(await fetchRelease(state)));
}

const fail = (err: unknown) => {
  process.stderr.write(`fleetlink-agent: ${(err as Error).message}\n`);
  process.exit(1);
};
const [command, ...rest] = process.argv.slice(2);
if (command === 'run') {
  run(rest).catch(fail);
} else if (command === 'release') {
  release(rest).catch(fail);
} else if (command === '--version' || command === 'version') {
  process.stdout.write(`${AGENT_VERSION}\n`);
} else {
  process.stderr.write(USAGE);
  process.exit(command ? 2 : 0);
}
