import type { Principal } from '../../auth/principal.js';
import type { MembershipRepository } from '../organizations/membership.repository.js';
import type { UsersRepository } from './users.repository.js';

/**
 * Records who signs in. Writes at most once per interval per user, so API calls don't each cost a
 * write, and makes sure every user has a PERSONAL organization to create devices in.
 */
export class UsersService {
  private readonly lastWrite = new Map<string, number>();

  constructor(
    private readonly repo: UsersRepository,
    private readonly memberships: MembershipRepository,
    private readonly intervalMs = 60_000,
  ) {}

  async seen(p: Principal, now = new Date()): Promise<void> {
    const previous = this.lastWrite.get(p.subject);
    if (previous !== undefined && now.getTime() - previous < this.intervalMs) return;
    this.lastWrite.set(p.subject, now.getTime());
    await this.repo.recordSeen(p, now);
    await this.memberships.ensurePersonalOrganization(p);
  }
}
