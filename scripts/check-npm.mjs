// `preinstall`: stops an install by an npm older than package.json's `engines.npm`, with one line.
// `engine-strict` cannot do this: it also refuses dependencies whose engines name Node 22 while they
// run on Node 20.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = Number(/^>=\s*(\d+)/.exec(engines?.npm ?? '')?.[1]);
// "npm/10.9.9 node/v20.20.2 linux x64 workspaces/false"; absent when another tool installs.
const running = /^npm\/(\d+)\.(\S+)/.exec(process.env.npm_config_user_agent ?? '');
if (needed && running && Number(running[1]) < needed) {
  process.stderr.write(
    `Fleetlink needs npm ${needed} or newer, this is npm ${running[1]}.${running[2]} (package.json, engines): run \`npm install -g npm@${needed}\`, then \`npm ci\` again.\n`,
  );
  process.exit(1);
}
