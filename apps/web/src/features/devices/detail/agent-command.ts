import { AGENT_KEY_VARIABLE, agentPortableFolder } from '@fleetlink/contract';

/** The bin of the agent workspace (apps/agent/package.json). */
export const AGENT_BIN = 'fleetlink-agent';

export interface AgentCommandInput {
  /** The console the agent enrolls with: the origin the browser reached it at. */
  consoleUrl: string;
  deviceId: string;
  installationKey: string;
}

/*
 * Every command passes the key outside the command line of any program, where `ps` would show it to
 * every user of the device: a shell's variable assignment before the command (in the program's
 * environment only), or, through sudo (whose own command line would hold an assignment), printf (a
 * shell builtin) piped into the installer's --key-file -. A base64url key needs no quoting.
 */
const target = ({ consoleUrl, deviceId }: AgentCommandInput) => `--server ${consoleUrl.replace(/\/+$/, '')} --device ${deviceId}`;

/** The command that enrolls and runs the agent for one device from a checkout (issue 4 item 1). */
export function agentCommand(input: AgentCommandInput): string {
  return `${AGENT_KEY_VARIABLE}=${input.installationKey} npx ${AGENT_BIN} run ${target(input)}`;
}

/**
 * The command that installs the agent from the Linux installer (issue 32): run as root where the
 * installer was saved; it writes the systemd unit and starts the agent.
 */
export function installerCommand(input: AgentCommandInput, installer: string): string {
  return `printf %s ${input.installationKey} | sudo sh ${installer} ${target(input)} --key-file -`;
}

/** The command that unpacks the portable archive where it was saved and runs the agent from there, as the user running it. */
export function portableCommand(input: AgentCommandInput, archive: string, bundleVersion: string): string {
  return `tar -xzf ${archive} && ${AGENT_KEY_VARIABLE}=${input.installationKey} ./${agentPortableFolder(bundleVersion)}/${AGENT_BIN} run ${target(input)}`;
}

/** The same input with the key masked, for showing a command while the key is hidden. */
export const masked = (input: AgentCommandInput): AgentCommandInput => ({ ...input, installationKey: maskSecret(input.installationKey) });

/** A secret as dots, at most 32 of them (the key's length is not worth revealing beyond that). */
export const maskSecret = (value: string) => '•'.repeat(Math.min(value.length, 32));
