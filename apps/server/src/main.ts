import { startConsole } from './console.js';
import { ConfigError, parseEnv, type Env } from './env.js';
import { SEEDED_ACCOUNTS, type SeededPassword } from './idp/accounts.js';
import { keptPasswordsPath } from './idp/kept-passwords.js';

/** `npm start`: one process with every embedded part; configuration errors end it with one line. */
async function main() {
  const env = parseEnv();
  const running = await startConsole(env);
  const lines = [`Fleetlink console running at ${running.url}`, `  database: ${running.database.kind === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL'}`];
  if (running.proxy) {
    const { sshPort, httpPort } = running.proxy.running;
    const scheme = env.TUNNEL_TLS_CERT_FILE ? 'https' : 'http';
    lines.push(`  tunnel proxy: SSH on ${env.TUNNEL_SSH_HOST}:${sshPort}, HTTP tunnels at ${scheme}://{path}.${env.TUNNEL_DOMAIN}:${httpPort}`);
  }
  if (running.metricsListener) {
    const { address, port } = running.metricsListener.address;
    lines.push(`  metrics: http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics${env.METRICS_TOKEN ? ' (bearer METRICS_TOKEN)' : ''}`);
  }
  if (running.seededPasswords) lines.push(...accountLines(running.seededPasswords, env));
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info(`${signal} received, stopping`);
    await running.close();
    // Said whatever the log level, as the start is: it stopped, and what it did with device messages
    // to the end (a drain after the API closed counts too; bench/fleet-consoles.ts reads it).
    const counts = running.messaging?.hub.instance().telemetry;
    process.stdout.write(`Fleetlink console stopped (${signal})${counts ? `: ${counts.handled} device messages handled since it started, ${counts.dropped} dropped` : ''}\n`);
    process.exit(0);
  };
  // One failed background task must not take every device's console down with it.
  process.on('unhandledRejection', (reason) => running.app.log.error({ err: reason }, 'unhandled rejection'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The banner's sign-in accounts: a generated password is shown here once, and never again. */
function accountLines(passwords: SeededPassword[], env: Env): string[] {
  const roles = (email: string) => SEEDED_ACCOUNTS.find((a) => a.email === email)!.realmRoles.join(', ') || 'no role';
  const lines = ['  built-in sign-in accounts (email / password):'];
  for (const p of passwords) {
    const password =
      p.source === 'environment'
        ? `(from ${p.variable})`
        : p.source === 'earlier'
          ? `(generated at an earlier start; kept in ${keptPasswordsPath(env.DATA_DIR)} unless deleted)`
          : p.password;
    lines.push(`    ${p.email} / ${password}  (${roles(p.email)})`);
  }
  if (passwords.some((p) => p.source === 'generated')) {
    lines.push(
      `  The console listens on ${env.HOST}, beyond this machine, so the accounts above got generated passwords: they are shown`,
      `  only now, and kept in ${keptPasswordsPath(env.DATA_DIR)} (readable by you only) for npm run token. Delete that file once they are stored elsewhere.`,
    );
  }
  return lines;
}

main().catch((err) => {
  const message = err instanceof ConfigError ? err.message : `Fleetlink could not start: ${(err as Error).message}`;
  process.stderr.write(message + '\n');
  process.exit(1);
});
