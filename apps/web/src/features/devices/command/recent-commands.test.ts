import { describe, expect, it } from 'vitest';
import { commandLine, recentCommands } from './recent-commands';

const run = (name: string, parameters: Record<string, string> = {}) => ({ kind: 'command' as const, details: { name, parameters, exitCode: 0 } });

describe('recentCommands', () => {
  it('offers the newest commands first, each once, at most 10, and skips other entries', () => {
    const entries = [
      run('execute', { command: 'uptime' }),
      { kind: 'device.update' as const, details: { name: 'renamed' } },
      run('ping'),
      run('execute', { command: 'uptime' }),
      ...Array.from({ length: 12 }, (_, i) => run('execute', { command: `echo ${i}` })),
    ];
    const offered = recentCommands(entries);
    expect(offered).toHaveLength(10);
    expect(offered.slice(0, 3).map(commandLine)).toEqual(['execute command=uptime', 'ping', 'execute command=echo 0']);
    expect(offered[0]).toEqual({ name: 'execute', parameters: [{ name: 'command', value: 'uptime' }] });
  });
});
