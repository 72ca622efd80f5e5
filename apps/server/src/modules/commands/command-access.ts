import { FILE_COMMAND, RealmRole } from '@fleetlink/contract';
import { hasRole, type Principal } from '../../auth/principal.js';

/**
 * Commands every member of a device's organization may run, because they only read. Every other
 * command runs programs on the device and is for ADMIN (SPEC §2, §6): this list is the one
 * place that says so.
 */
const MEMBER_COMMANDS: ReadonlySet<string> = new Set<string>([FILE_COMMAND]);

export function mayRunCommand(p: Principal, name: string): boolean {
  return readsOnly(name) || hasRole(p, RealmRole.Admin);
}

/** A command that changes nothing (a folder listing): it leaves no audit entry, as no page view does. */
export const readsOnly = (name: string) => MEMBER_COMMANDS.has(name);
