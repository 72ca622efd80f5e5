import { describe, expect, it } from 'vitest';
import { agentCommand, installerCommand, masked, maskSecret, portableCommand } from './agent-command';

const input = {
  consoleUrl: 'https://fleetlink.example.com',
  deviceId: '0b1f0868-0000-4000-8000-000000000000',
  installationKey: 'a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs',
};

describe('agent commands', () => {
  it('runs npx with the console url and device id, the key in the environment, not the command line', () => {
    expect(agentCommand(input)).toBe(
      'FLEETLINK_AGENT_KEY=a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs npx fleetlink-agent run --server https://fleetlink.example.com --device 0b1f0868-0000-4000-8000-000000000000',
    );
  });

  it('drops a trailing slash of the console url', () => {
    expect(agentCommand({ ...input, consoleUrl: 'http://localhost:8080/' })).toContain('--server http://localhost:8080 --device');
  });

  it('masks only the key', () => {
    const shown = agentCommand(masked(input));
    expect(shown).not.toContain(input.installationKey);
    expect(shown).toBe(agentCommand({ ...input, installationKey: '•'.repeat(32) }));
    expect(maskSecret('abc')).toBe('•••');
  });

  it('runs the downloaded installer as root, the key piped in by a shell builtin (sudo would show an assignment)', () => {
    expect(installerCommand({ ...input, consoleUrl: 'https://fleetlink.example.com/' }, 'fleetlink-agent-2.0.0-linux-installer.sh')).toBe(
      'printf %s a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs | sudo sh fleetlink-agent-2.0.0-linux-installer.sh --server https://fleetlink.example.com --device 0b1f0868-0000-4000-8000-000000000000 --key-file -',
    );
  });

  it('unpacks the portable archive and runs its launcher, the key in the environment', () => {
    expect(portableCommand(input, 'fleetlink-agent-2.0.0-linux-portable.tar.gz', '2.0.0')).toBe(
      'tar -xzf fleetlink-agent-2.0.0-linux-portable.tar.gz && FLEETLINK_AGENT_KEY=a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs ./fleetlink-agent-2.0.0/fleetlink-agent run --server https://fleetlink.example.com --device 0b1f0868-0000-4000-8000-000000000000',
    );
  });
});
