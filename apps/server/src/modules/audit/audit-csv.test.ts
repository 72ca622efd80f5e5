import { describe, expect, it } from 'vitest';
import { csvCell } from '../../lib/csv.js';
import { auditCsvLine } from './audit-csv.js';

describe('audit CSV', () => {
  it('quotes per RFC 4180 only where needed, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('makes every cell a spreadsheet would run as a formula plain text', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes one CRLF-terminated line per entry with the details as JSON', () => {
    const line = auditCsvLine({
      id: '7',
      time: '2026-11-24T10:00:00.000Z',
      username: 'user@fleetlink.local',
      subject: 'sub-1',
      clientAddress: '127.0.0.1',
      kind: 'command',
      organization: { id: 'o1', name: 'Acme, Inc.' },
      device: { id: 'd1', name: '-rm' },
      details: { name: 'execute', exitCode: 0 },
      outcome: 'ok',
      error: null,
    });
    expect(line).toBe(
      `2026-11-24T10:00:00.000Z,user@fleetlink.local,sub-1,127.0.0.1,Command,command,"Acme, Inc.",o1,'-rm,d1,ok,,"{""name"":""execute"",""exitCode"":0}"\r\n`,
    );
  });
});
