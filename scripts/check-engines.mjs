// `preinstall`: stops an install on a Node.js or an npm older than package.json's `engines`, with one
// line saying what to install. `engine-strict` cannot do this: it would also refuse dependencies
// whose own `engines` are narrower than they need to be.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const major = (range) => Number(/^>=\s*(\d+)/.exec(range ?? '')?.[1]);

const nodeNeeded = major(engines?.node);
const nodeRunning = Number(process.versions.node.split('.')[0]);
if (nodeNeeded && nodeRunning < nodeNeeded) {
  process.stderr.write(
    `Fleetlink needs Node.js ${nodeNeeded} or newer, this is Node.js ${process.version} (package.json, engines): install Node.js ${nodeNeeded} LTS, or run \`. scripts/node24.sh\` to use one from the npm registry in this shell, then \`npm ci\` again.\n`,
  );
  process.exit(1);
}

const npmNeeded = major(engines?.npm);
// "npm/10.9.9 node/v20.20.2 linux x64 workspaces/false"; absent when another tool installs.
const npmRunning = /^npm\/(\d+)\.(\S+)/.exec(process.env.npm_config_user_agent ?? '');
if (npmNeeded && npmRunning && Number(npmRunning[1]) < npmNeeded) {
  process.stderr.write(
    `Fleetlink needs npm ${npmNeeded} or newer, this is npm ${npmRunning[1]}.${npmRunning[2]} (package.json, engines): run \`npm install -g npm@${npmNeeded}\`, then \`npm ci\` again.\n`,
  );
  process.exit(1);
}
