import { describe, expect, it } from 'vitest';
import { classify } from './network.js';
import { collectProperties } from './properties.js';
import { agentPropertyKeys } from '@fleetlink/contract';

describe('agent collectors', () => {
  it('tells local from public addresses', () => {
    for (const ip of ['10.1.2.3', '192.168.0.10', '172.16.5.4', '127.0.0.1', '169.254.1.1', 'fe80::1', 'fd00::2']) expect(classify(ip), ip).toBe('LOCAL');
    for (const ip of ['8.8.8.8', '172.32.0.1', '2001:db8::1']) expect(classify(ip), ip).toBe('PUBLIC');
  });

  it('reports every SPEC property key, naming the runtime honestly', () => {
    const props = collectProperties(0.25);
    for (const key of agentPropertyKeys) expect(props[key], key).toBeTypeOf('string');
    expect(props['java.name']).toBe('Node.js');
    expect(props['cpu.sys.load']).toBe('0.2500');
  });
});
