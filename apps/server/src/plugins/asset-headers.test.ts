import { describe, expect, it } from 'vitest';
import { headersToDropFor } from './asset-headers';

describe('the security headers left off the web console\'s built files', () => {
  const dist = '/srv/fleetlink/apps/web/dist';

  it('leaves the document-only ones, the policy included, off scripts and stylesheets, compressed or not', () => {
    for (const file of ['assets/react-C1iE8mnY.js', 'assets/react-C1iE8mnY.js.br', 'assets/common-BqUn2x5U.css.gz']) {
      const dropped = headersToDropFor(`${dist}/${file}`);
      expect(dropped, file).toContain('content-security-policy');
      expect(dropped, file).toContain('x-frame-options');
      // Named by their content, never revalidated.
      expect(dropped, file).toContain('etag');
      // What applies to a script or a stylesheet stays.
      expect(dropped, file).not.toContain('x-content-type-options');
      expect(dropped, file).not.toContain('cross-origin-resource-policy');
      expect(dropped, file).not.toContain('referrer-policy');
    }
  });

  it('keeps the policy on a worker\'s script, which runs under it', () => {
    const dropped = headersToDropFor(`${dist}/assets/worker-pbkdf2-Co4Z2U4M.js.br`);
    expect(dropped).not.toContain('content-security-policy');
    expect(dropped).toContain('x-frame-options');
  });

  it('keeps every header on the pages and the other files', () => {
    for (const file of ['index.html', 'index.html.br', 'assets/silent-check-sso.html', 'favicon.svg']) {
      expect(headersToDropFor(`${dist}/${file}`), file).toEqual([]);
    }
    // A script not named by its content keeps its validators.
    expect(headersToDropFor(`${dist}/sw.js`)).not.toContain('etag');
  });
});
