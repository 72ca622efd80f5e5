import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('./young-buffers.ts', import.meta.url));

describe('keepShortLivedBuffersYoung', () => {
  // V8 says "unrecognized flag" on stderr for a flag it does not know (one renamed or removed in a
  // newer Node) and goes on without it: that is what this catches. What the flag buys is measured by
  // bench/tunnel-tcp.ts.
  it('sets a flag this Node knows', () => {
    const script = `import { keepShortLivedBuffersYoung } from ${JSON.stringify(module)}; keepShortLivedBuffersYoung(); console.log('set');`;
    const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(ran.stdout.trim()).toBe('set');
    expect(ran.stderr).toBe('');
  });
});
