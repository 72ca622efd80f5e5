// The launcher's part while an agent runs: the agent itself is a child process, so that it can be
// restarted (the `restart` command) without anyone outside noticing. The child asks for a restart
// by exiting with RESTART_EXIT_CODE; any other exit ends the launcher with the same code. Signals
// are passed on, and a child whose launcher is gone stops by itself (it watches the IPC channel).
// The launcher holds little more than Node's own private pages (about 8 MB beside the agent, since the
// two share Node's code).
import { fork } from 'node:child_process';
import { constants } from 'node:os';
import { nodeFlags } from './node-flags.mjs';

/** EX_TEMPFAIL: "try again", which is what a restart is. */
const RESTART_EXIT_CODE = 75;

export function supervise(script, args, execArgv = []) {
  let child;
  let stopping = false;
  const start = () => {
    child = fork(script, args, {
      execArgv: [...nodeFlags(), ...execArgv],
      stdio: 'inherit',
      env: { ...process.env, FLEETLINK_AGENT_RESTART_CODE: String(RESTART_EXIT_CODE) },
    });
    child.on('exit', (code, signal) => {
      if (code === RESTART_EXIT_CODE && !stopping) {
        process.stderr.write('fleetlink-agent: restarting the agent\n');
        return start();
      }
      process.exit(code ?? 128 + (constants.signals[signal] ?? 1));
    });
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => {
      stopping = true;
      child?.kill(signal);
    });
  }
  start();
}
