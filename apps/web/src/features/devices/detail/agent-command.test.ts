import { describe, expect, it } from 'vitest';
import { agentCommand, installerCommand, maskedAgentCommand, maskSecret } from './agent-command';

const input = {
  consoleUrl: 'https://fleetlink.example.com',
  deviceId: '0b1f0868-0000-4000-8000-000000000000',
  installationKey: 'a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs',
};

describe('agent command', () => {
  it('is the npx command with the console url, device id and installation key', () => {
    expect(agentCommand(input)).toBe(
      'npx fleetlink-agent run --server https://fleetlink.example.com --device 0b1f0868-0000-4000-8000-000000000000 --key=a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs',
    );
  });

  it('drops a trailing slash of the console url', () => {
    expect(agentCommand({ ...input, consoleUrl: 'http://localhost:8080/' })).toContain('--server http://localhost:8080 --device');
  });

  it('joins the key with = so that a key beginning with a dash is not read as an option', () => {
    expect(agentCommand({ ...input, installationKey: '-abc' })).toMatch(/ --key=-abc$/);
  });

  it('masks only the key', () => {
    const masked = maskedAgentCommand(input);
    expect(masked).not.toContain(input.installationKey);
    expect(masked).toBe(agentCommand({ ...input, installationKey: '•'.repeat(32) }));
    expect(maskSecret('abc')).toBe('•••');
  });

  it('runs the downloaded installer as root with the same console url, device id and key', () => {
    expect(installerCommand({ ...input, consoleUrl: 'https://fleetlink.example.com/' }, 'fleetlink-agent-2.0.0-linux-installer.sh')).toBe(
      'sudo sh fleetlink-agent-2.0.0-linux-installer.sh --server https://fleetlink.example.com --device 0b1f0868-0000-4000-8000-000000000000 --key=a_dGqZLi9xhiABAVA0YVSVQBLNnpXxFxiQ_k2m3EHgs',
    );
  });
});
