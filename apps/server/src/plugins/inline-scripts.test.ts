import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptSources } from './inline-scripts.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineScriptSources', () => {
  it('hashes the body of every inline script, exactly as written, and none that loads a file', () => {
    const body = "\n      window.parent.postMessage({ source: 'oidc-client' }, window.location.origin);\n    ";
    const html = `<html><body><script type="module" src="/assets/a.js"></script><script>${body}</script><SCRIPT nonce="x">b()</SCRIPT></body></html>`;
    expect(inlineScriptSources(html)).toEqual([sha256(body), sha256('b()')]);
    expect(inlineScriptSources('<p>no script</p>')).toEqual([]);
  });
});
