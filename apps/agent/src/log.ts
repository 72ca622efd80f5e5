/** One line per event on stderr, JSON so a service manager's journal stays searchable. */
export function log(level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}) {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...extra }) + '\n');
}
