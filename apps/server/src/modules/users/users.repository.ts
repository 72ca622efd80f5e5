import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import type { Principal } from '../../auth/principal.js';

export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** Records a sighting: inserts on first sight, otherwise refreshes profile, roles and last-seen time. */
  async recordSeen(p: Principal, at: Date): Promise<void> {
    await this.db
      .insert(users)
      .values({ subject: p.subject, username: p.username, name: p.name, email: p.email, roles: p.roles, firstSeenAt: at, lastSeenAt: at })
      .onConflictDoUpdate({
        target: users.subject,
        set: { username: p.username, name: p.name, email: p.email, roles: p.roles, lastSeenAt: sql`excluded.last_seen_at` },
      });
  }

  async findBySubject(subject: string) {
    return this.db.query.users.findFirst({ where: (u, { eq }) => eq(u.subject, subject) });
  }
}
