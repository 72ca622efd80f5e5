import { describe, expect, it } from 'vitest';
import { attachment, baseName, multipartFileName } from './http-file-names.js';

describe('attachment', () => {
  it('keeps a plain name as it is', () => {
    expect(attachment('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });

  it('keeps a non-ASCII name in filename* and quotes nothing it should not', () => {
    expect(attachment('résumé "final".pdf')).toBe(`attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`);
  });

  it('lets no header be ended or added by the name', () => {
    const header = attachment('a\r\nSet-Cookie: x=1;.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(`attachment; filename="aSet-Cookie: x=1;.txt"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1%3B.txt`);
  });

  it("encodes RFC 8187's reserved characters", () => {
    expect(attachment("it's (1)*%.txt")).toContain(`filename*=UTF-8''it%27s%20%281%29%2A%25.txt`);
  });
});

describe('baseName', () => {
  it('takes the last segment with either separator', () => {
    expect(baseName('/var/log/syslog')).toBe('syslog');
    expect(baseName('C:\\Users\\me\\notes.txt')).toBe('notes.txt');
    expect(baseName('/etc/../passwd')).toBe('passwd');
  });
});

describe('multipartFileName', () => {
  it("undoes the browser's escapes of quotes and line breaks, and nothing else", () => {
    expect(multipartFileName('résumé %22final%22.pdf')).toBe('résumé "final".pdf');
    expect(multipartFileName('a%0D%0Ab')).toBe('a\r\nb');
    expect(multipartFileName('100%25 done')).toBe('100%25 done');
  });
});
