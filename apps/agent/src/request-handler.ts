import {
  commandRequestSchema,
  diskScanRequestSchema,
  fileDeleteRequestSchema,
  fileFetchRequestSchema,
  fileNameRequestSchema,
  fileSendRequestSchema,
  migrateParametersSchema,
  monitorsSetRequestSchema,
  RequestName,
  transferCancelRequestSchema,
  tunnelCloseRequestSchema,
  terminalOpenRequestSchema,
  tunnelOpenRequestSchema,
  type ReplyEnvelope,
  type RequestEnvelope,
} from '@fleetlink/contract';
import { killRunningCommands } from './commands/execute.js';
import { CommandRunner } from './commands/run-command.js';
import { Refused } from './refused.js';
import { createFolder, deleteEntry, renameEntry } from './files/change-files.js';
import { scanDisk } from './files/disk-scan.js';
import { FileTransfers } from './files/transfers.js';
import type { MonitorWatch } from './monitors/monitor-watch.js';
import type { AgentState } from './store.js';
import type { TunnelClient } from './tunnels/tunnel-client.js';
import type { TerminalHost } from './terminal/terminal-host.js';
import type { UpdateCheck } from './update/self-update.js';

/** What answering a request needs of the agent. */
export interface AgentSide {
  state(): AgentState;
  readonly monitors: MonitorWatch;
  /** Moves the agent to another message server. */
  migrate(server: AgentState['messageServer'], password: string): Promise<void>;
  /** Restarts the agent process (the `restart` command); absent when nothing would start it again. */
  restart?: () => Promise<void>;
  /** Updates to the device's release (the `update` command); absent without the installed launcher. */
  update?: () => Promise<UpdateCheck>;
}

export type Reply = (r: Omit<ReplyEnvelope, 'id'>) => Promise<void>;

/**
 * The console's requests that do work on the device: commands, files, monitors, tunnels and
 * terminals. The agent loads this module with the first of them, and with it zod and the requests'
 * schemas: an idle agent, which answers only the ping and the properties request, never carries
 * them (about 4 MB, issue 73). Throws what the agent answers as the request's error.
 */
export class RequestHandler {
  private readonly commands: CommandRunner;
  private readonly transfers: FileTransfers;
  /** Loaded with the first tunnel: an agent without tunnels never carries the SSH client. */
  private tunnels?: TunnelClient;
  private terminals?: TerminalHost;

  constructor(private readonly agent: AgentSide) {
    this.commands = new CommandRunner(agent.restart, agent.update);
    this.transfers = new FileTransfers(() => this.endpoint());
  }

  async answer(req: RequestEnvelope, reply: Reply): Promise<void> {
    switch (req.name) {
      case RequestName.Migrate: {
        const params = migrateParametersSchema.parse(req.parameters);
        void reply({ ok: true });
        return this.agent.migrate(params.server, params.password);
      }
      case RequestName.Command: {
        const command = commandRequestSchema.safeParse(req.parameters);
        if (!command.success) return reply({ ok: false, error: 'The command request is not valid.' });
        const done = await this.commands.run(command.data);
        // A restart waits until the answer is with the broker: the console hears it before the agent goes.
        await reply({ ok: true, result: done.output });
        await done.after?.();
        return;
      }
      case RequestName.CreateFolder:
        return reply({ ok: true, result: await createFolder(valid(fileNameRequestSchema, req.parameters)) });
      case RequestName.Rename:
        return reply({ ok: true, result: await renameEntry(valid(fileNameRequestSchema, req.parameters)) });
      case RequestName.Delete:
        return reply({ ok: true, result: await deleteEntry(valid(fileDeleteRequestSchema, req.parameters)) });
      case RequestName.DiskScan: {
        const scan = valid(diskScanRequestSchema, req.parameters);
        return reply({ ok: true, result: await scanDisk(scan.path, Date.now() + scan.budgetMs) });
      }
      case RequestName.SendFile:
        return reply({ ok: true, result: await this.transfers.send(valid(fileSendRequestSchema, req.parameters)) });
      case RequestName.FetchFile:
        return reply({ ok: true, result: await this.transfers.fetch(valid(fileFetchRequestSchema, req.parameters)) });
      case RequestName.SetMonitors:
        return reply({ ok: true, result: { readings: await this.agent.monitors.apply(valid(monitorsSetRequestSchema, req.parameters)) } });
      case RequestName.OpenTunnel:
        await (await this.tunnelClient()).open(valid(tunnelOpenRequestSchema, req.parameters));
        return reply({ ok: true });
      case RequestName.CloseTunnel:
        await this.tunnels?.close(valid(tunnelCloseRequestSchema, req.parameters));
        return reply({ ok: true });
      case RequestName.OpenTerminal:
        await (await this.terminalHost()).open(valid(terminalOpenRequestSchema, req.parameters));
        return reply({ ok: true });
      case RequestName.CancelTransfer:
        this.transfers.cancel(valid(transferCancelRequestSchema, req.parameters).transferId);
        return reply({ ok: true });
      default:
        return reply({ ok: false, error: `Unknown request ${req.name}` });
    }
  }

  /** The agent stops: what runs on the device ends with it. */
  end(): void {
    killRunningCommands();
    this.tunnels?.end();
    this.terminals?.end();
  }

  private endpoint() {
    const state = this.agent.state();
    return { consoleUrl: state.consoleUrl, ...state.mqtt };
  }

  /** Loaded with its pseudo-terminal library when a terminal is first asked for: most agents never load it. */
  private async terminalHost(): Promise<TerminalHost> {
    if (!this.terminals) {
      const { TerminalHost } = await import('./terminal/terminal-host.js');
      this.terminals ??= new TerminalHost(() => this.endpoint());
    }
    return this.terminals;
  }

  private async tunnelClient(): Promise<TunnelClient> {
    if (!this.tunnels) {
      const { TunnelClient } = await import('./tunnels/tunnel-client.js');
      this.tunnels ??= new TunnelClient(() => {
        const state = this.agent.state();
        return { username: state.deviceId, password: state.mqtt.password };
      });
    }
    return this.tunnels;
  }
}

/** A request's parameters as its schema has them, or a short refusal (a schema error is long JSON). */
function valid<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, parameters: unknown): T {
  const parsed = schema.safeParse(parameters);
  if (!parsed.success) throw new Refused('The request is not valid.');
  return parsed.data;
}
