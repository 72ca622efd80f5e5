import { AuditKind, type AuditEntry, type CommandFormInput } from '@fleetlink/contract';

/** How many of the device's commands the Command page offers again (issue 59). */
export const RECENT_COMMANDS_MAX = 10;

/**
 * The device's last commands, newest first and each once, from the audit trail's command entries
 * (which hold each run's name and parameters; listings are not recorded and so not offered).
 */
export function recentCommands(entries: readonly Pick<AuditEntry, 'kind' | 'details'>[], max = RECENT_COMMANDS_MAX): CommandFormInput[] {
  const seen = new Set<string>();
  const commands: CommandFormInput[] = [];
  for (const e of entries) {
    if (e.kind !== AuditKind.Command || typeof e.details?.name !== 'string') continue;
    const parameters = Object.entries((e.details.parameters ?? {}) as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value) }));
    const command = { name: e.details.name, parameters };
    const key = JSON.stringify(command);
    if (seen.has(key)) continue;
    seen.add(key);
    commands.push(command);
    if (commands.length === max) break;
  }
  return commands;
}

/** A command as one line: `execute command=uptime`. */
export const commandLine = (c: CommandFormInput) => [c.name, ...(c.parameters ?? []).map((p) => `${p.name}=${p.value}`)].join(' ');
