import { describe, expect, it } from 'vitest';
import { driveOf, fileListingParametersSchema, fileNameSchema } from './files.js';

describe('drive of a path', () => {
  it('is the longest root the path is under, on both kinds of paths', () => {
    const drives = [{ root: '/' }, { root: '/data' }, { root: 'C:\\' }, { root: 'D:\\' }];
    expect(driveOf(drives, '/data/x')).toBe('/data');
    expect(driveOf(drives, '/database')).toBe('/');
    expect(driveOf(drives, '/data')).toBe('/data');
    expect(driveOf(drives, 'D:\\Users')).toBe('D:\\');
    expect(driveOf([{ root: '/data' }], '/etc')).toBeUndefined();
  });
});

describe('file names and listing parameters', () => {
  it('takes one segment and trims it', () => {
    expect(fileNameSchema.parse('  report 2026.pdf ')).toBe('report 2026.pdf');
    expect(fileNameSchema.parse('..hidden')).toBe('..hidden');
    for (const bad of ['.', '..', 'a/b', 'a\\b', '', '   ', 'x'.repeat(256), 'tab\there']) expect(fileNameSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('reads offset and hidden as the agent does', () => {
    expect(fileListingParametersSchema.safeParse({ path: '/', offset: '500', hidden: 'false' }).success).toBe(true);
    expect(fileListingParametersSchema.safeParse({ offset: '-1' }).success).toBe(false);
    expect(fileListingParametersSchema.safeParse({ hidden: 'yes' }).success).toBe(false);
    expect(fileListingParametersSchema.safeParse({ path: '/a\u0000' }).success).toBe(false);
  });
});
