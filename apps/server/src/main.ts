import { startConsole } from './console.js';
import { ConfigError, parseEnv, usesBuiltInIdp } from './env.js';
import { SEEDED_ACCOUNTS } from './idp/accounts.js';

/** `npm start`: one process with every embedded part; configuration errors end it with one line. */
async function main() {
  const env = parseEnv();
  const running = await startConsole(env);
  const lines = [`Fleetlink console running at ${running.url}`, `  database: ${running.database.kind === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL'}`];
  if (running.proxy) {
    const { sshPort, httpPort } = running.proxy.running;
    lines.push(`  tunnel proxy: SSH on ${env.TUNNEL_SSH_HOST}:${sshPort}, HTTP tunnels at http://{path}.${env.TUNNEL_DOMAIN}:${httpPort}`);
  }
  if (usesBuiltInIdp(env)) {
    lines.push('  built-in sign-in accounts (email / password):');
    for (const a of SEEDED_ACCOUNTS) lines.push(`    ${a.email} / ${a.password}  (${a.realmRoles.join(', ') || 'no role'})`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info(`${signal} received, stopping`);
    await running.close();
    process.exit(0);
  };
  // One failed background task must not take every device's console down with it.
  process.on('unhandledRejection', (reason) => running.app.log.error({ err: reason }, 'unhandled rejection'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  const message = err instanceof ConfigError ? err.message : `Fleetlink could not start: ${(err as Error).message}`;
  process.stderr.write(message + '\n');
  process.exit(1);
});
