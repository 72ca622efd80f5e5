import { CommandName, commandTimeoutSeconds, FILE_COMMAND, type CommandOutput, type CommandRequest, type FileListing } from '@fleetlink/contract';
import { drives } from '../collectors/drives.js';
import { listFolder } from '../files/list-folder.js';
import { execute } from './execute.js';
import { Refused } from '../refused.js';
import type { UpdateCheck } from '../update/self-update.js';


/** At most this many `execute` commands at once: each holds a process tree and its output. */
const MAX_RUNNING = 8;

export interface CommandDone {
  /** What a command printed; for `file`, the folder's listing (SPEC §3). */
  output: CommandOutput | FileListing;
  /** What to do once the answer is on its way (a restart). */
  after?: () => Promise<void>;
}

/** The commands of the Command page (SPEC §2): execute, ping, restart, update; and `file`, the Storage page's listing. */
export class CommandRunner {
  private runningCount = 0;

  constructor(
    /** Restarts the agent process; absent when nothing would start it again. */
    private readonly restart?: () => Promise<void>,
    /** Updates to the device's release (self-update); absent without the installed launcher. */
    private readonly update?: () => Promise<UpdateCheck>,
  ) {}

  async run(request: CommandRequest): Promise<CommandDone> {
    const timeout = commandTimeoutSeconds(request.parameters);
    if (typeof timeout !== 'number') throw new Refused(timeout.error);
    switch (request.name) {
      case CommandName.Execute:
        return { output: await this.execute(request.parameters.command, timeout) };
      case CommandName.Ping:
        return { output: answer('pong\n') };
      case FILE_COMMAND:
        return { output: await listFolder(request.parameters, drives) };
      case CommandName.Restart: {
        const restart = this.restart;
        if (!restart) throw new Refused('This agent was started without its launcher, so it cannot restart itself.');
        return { output: answer('The agent restarts now.\n'), after: restart };
      }
      case CommandName.Update: {
        if (!this.update) throw new Refused('This agent runs without its installed launcher, so it cannot update itself: install it from the Install page.');
        const checked = await this.update();
        return { output: answer(`${checked.message}\n`), after: checked.handOver };
      }
      default:
        throw new Refused(`Unknown command '${request.name}'`);
    }
  }

  private async execute(command: string | undefined, timeoutSeconds: number): Promise<CommandOutput> {
    if (!command?.trim()) throw new Refused("The command 'execute' needs the parameter 'command': what to run.");
    if (this.runningCount >= MAX_RUNNING) {
      throw new Refused(`${MAX_RUNNING} commands are running on this device already: wait for one of them to end.`);
    }
    this.runningCount++;
    try {
      return await execute(command, timeoutSeconds * 1000);
    } finally {
      this.runningCount--;
    }
  }
}

const answer = (stdout: string): CommandOutput => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout,
  stderr: '',
  stdoutCut: 0,
  stderrCut: 0,
  durationMs: 0,
});
