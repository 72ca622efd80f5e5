import type { Principal } from '../../auth/principal.js';
import type { UsersRepository } from './users.repository.js';

/** Writes a user's last-seen time at most once per interval, so API calls don't each cost a write. */
export class UsersService {
  private readonly lastWrite = new Map<string, number>();

  constructor(
    private readonly repo: UsersRepository,
    private readonly intervalMs = 60_000,
  ) {}

  async seen(p: Principal, now = new Date()): Promise<void> {
    const previous = this.lastWrite.get(p.subject);
    if (previous !== undefined && now.getTime() - previous < this.intervalMs) return;
    this.lastWrite.set(p.subject, now.getTime());
    await this.repo.recordSeen(p, now);
  }
}
