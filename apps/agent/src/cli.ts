import { parseArgs } from 'node:util';
import path from 'node:path';
import { Agent } from './agent.js';
import { log } from './log.js';
import { defaultDataDir, StateStore, type AgentState } from './store.js';
import { AGENT_VERSION } from './version.js';

const USAGE = `Usage: fleetlink-agent run --server <console url> --device <id> [--key <installation key>] [--data-dir <dir>]

  --server    the Fleetlink console, e.g. https://fleetlink.example.com
  --device    the device id (Install page)
  --key       the installation key (Install page); needed only for the first run
  --data-dir  where the agent keeps its credentials (default ~/.fleetlink-agent/<device id>)
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Enrolls, retrying while the console is away; a refusal (unknown id, wrong key) ends the agent. */
async function enrollUntilDone(server: string, device: string, key: string, store: StateStore): Promise<AgentState> {
  // Loaded on demand: a running agent that already has its credentials never carries it.
  const { enroll, EnrollmentRefused } = await import('./enroll.js');
  let delay = 1000;
  for (;;) {
    try {
      const res = await enroll(server, device, key);
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
    } catch (err) {
      if (err instanceof EnrollmentRefused) throw err;
      log('warn', 'enrollment failed, retrying', { err: (err as Error).message, inMs: delay });
      await sleep(delay);
      delay = Math.min(60_000, delay * 2);
    }
  }
}

async function run(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      device: { type: 'string' },
      key: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  if (!values.server || !values.device) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const server = values.server.replace(/\/$/, '');
  const store = new StateStore(path.resolve(values['data-dir'] ?? defaultDataDir(values.device)));
  let state = store.load();
  if (!state || state.deviceId !== values.device || state.consoleUrl !== server) {
    if (!values.key) {
      process.stderr.write(`This agent is not enrolled yet: give --key, the installation key from the device Install page.\n`);
      process.exit(2);
    }
    state = await enrollUntilDone(server, values.device, values.key, store);
  }
  const key = values.key;
  const agent = new Agent(state, store, key ? () => enrollUntilDone(server, values.device!, key, store) : undefined);
  agent.start();
  log('info', 'agent running', { version: AGENT_VERSION, device: state.deviceId, pid: process.pid });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await agent.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'run') {
  run(rest).catch((err) => {
    process.stderr.write(`fleetlink-agent: ${(err as Error).message}\n`);
    process.exit(1);
  });
} else if (command === '--version' || command === 'version') {
  process.stdout.write(`${AGENT_VERSION}\n`);
} else {
  process.stderr.write(USAGE);
  process.exit(command ? 2 : 0);
}
