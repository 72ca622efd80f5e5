import { SEEDED_ACCOUNTS } from '../../apps/server/src/idp/accounts.js';

/** The built-in provider's seeded accounts (issue #2): email = username, password, full name. */
export type SeededAccount = (typeof SEEDED_ACCOUNTS)[number];

function account(email: string): SeededAccount {
  const found = SEEDED_ACCOUNTS.find((a) => a.email === email);
  if (!found) throw new Error(`no seeded account ${email}`);
  return found;
}

export const admin = account('admin@fleetlink.local');
export const user = account('user@fleetlink.local');
export const guest = account('guest@fleetlink.local');
