// Prints one closing line over the vitest JSON reports in the given folders: "tests: N passed, N failed",
// and the Node.js they ran on (AGENT_NODE: the one the agents' pass ran its agents on).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of process.argv.slice(2)) {
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
}
const agentNode = process.env.AGENT_NODE ? `; agents also on Node.js ${execFileSync(process.env.AGENT_NODE, ['--version'], { encoding: 'utf8' }).trim()}` : '';
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped (Node.js ${process.version}${agentNode})`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
