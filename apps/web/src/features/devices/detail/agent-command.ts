/** The bin of the agent workspace (apps/agent/package.json). */
export const AGENT_BIN = 'fleetlink-agent';

export interface AgentCommandInput {
  /** The console the agent enrolls with: the origin the browser reached it at. */
  consoleUrl: string;
  deviceId: string;
  installationKey: string;
}

/**
 * The command that enrolls and runs the agent for one device (issue 4 item 1). The key is joined
 * with '=' because a base64url key may begin with '-', which an option parser would take for a flag.
 */
export function agentCommand({ consoleUrl, deviceId, installationKey }: AgentCommandInput): string {
  return `npx ${AGENT_BIN} run --server ${consoleUrl.replace(/\/+$/, '')} --device ${deviceId} --key=${installationKey}`;
}

/**
 * The command that installs the agent from the Linux installer (issue 32): run as root where the
 * installer was saved; it writes the systemd unit and starts the agent.
 */
export function installerCommand({ consoleUrl, deviceId, installationKey }: AgentCommandInput, installer: string): string {
  return `sudo sh ${installer} --server ${consoleUrl.replace(/\/+$/, '')} --device ${deviceId} --key=${installationKey}`;
}

/** The same command with the key masked, for showing it while the key is hidden. */
export function maskedAgentCommand(input: AgentCommandInput): string {
  return agentCommand({ ...input, installationKey: maskSecret(input.installationKey) });
}

/** A secret as dots, at most 32 of them (the key's length is not worth revealing beyond that). */
export const maskSecret = (value: string) => '•'.repeat(Math.min(value.length, 32));
