import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, compressAnswer, type OutgoingAnswer } from './http-compression.js';

const answer = (body: OutgoingAnswer['body'], acceptEncoding?: string): OutgoingAnswer => ({
  method: 'GET',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  contentEncoding: undefined,
  acceptEncoding,
  body,
});

describe('compressAnswer with a string body (issue 69: no copy unless compressed)', () => {
  it('measures a string in bytes, not characters, against the threshold', () => {
    // 600 characters of two bytes each: over the threshold in bytes, under it in characters.
    const text = JSON.stringify('é'.repeat(600));
    expect(text.length).toBeLessThan(COMPRESS_MIN_BYTES);
    const plan = compressAnswer(answer(text, 'gzip'));
    expect(plan?.encoding).toBe('gzip');
    expect(gunzipSync(plan!.compressed!).toString()).toBe(text);
  });

  it('leaves a small string alone and only varies a large one when the client takes no encoding', () => {
    expect(compressAnswer(answer('{"ok":true}', 'gzip'))).toBeUndefined();
    expect(compressAnswer(answer(JSON.stringify('x'.repeat(2000))))).toEqual({});
  });
});
