import type { JobTarget } from '@fleetlink/contract';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Member } from '../../auth/principal.js';
import type { DbExecutor } from '../../db/client.js';
import { deviceSearch, devices, organizationMembers } from '../../db/schema/index.js';
import { matchCondition } from '../devices/devices.repository.js';
import { membershipOf } from '../organizations/membership.repository.js';

/** The condition of a target, over `devices` joined with its search row. */
function targetCondition(target: JobTarget): SQL | undefined {
  switch (target.kind) {
    case 'search': {
      const status = target.status === 'online' ? eq(deviceSearch.online, true) : target.status === 'offline' ? eq(deviceSearch.online, false) : undefined;
      return and(matchCondition(target.search), status);
    }
    case 'tag':
      return sql`${target.tag} = any(${devices.tags})`;
    case 'organization':
      return eq(devices.organizationId, target.organizationId);
    case 'devices':
      return inArray(devices.id, target.ids);
  }
}

/**
 * The devices a target reaches for `member`: only in organizations they are a member of (narrowed
 * to an API token's), read on `db` (a transaction when a run starts). In name order, as the
 * results table shows them.
 */
export function resolveTarget(db: DbExecutor, member: Member, target: JobTarget): Promise<{ id: string; name: string }[]> {
  const memberOrganizations = db.select({ id: organizationMembers.organizationId }).from(organizationMembers).where(membershipOf(member));
  return db
    .select({ id: devices.id, name: devices.name })
    .from(devices)
    .innerJoin(deviceSearch, eq(deviceSearch.deviceId, devices.id))
    .where(and(inArray(devices.organizationId, memberOrganizations), targetCondition(target)))
    .orderBy(asc(devices.name), asc(devices.id));
}

/** How a target reads in the list and the audit trail. */
export function describeTarget(target: JobTarget, organizationName?: string): string {
  switch (target.kind) {
    case 'search': {
      const text = target.search?.trim() ? `devices matching '${target.search.trim()}'` : 'all devices';
      return target.status ? `${text}, ${target.status}` : text;
    }
    case 'tag':
      return `devices tagged '${target.tag}'`;
    case 'organization':
      return `devices of ${organizationName ? `'${organizationName}'` : 'an organization'}`;
    case 'devices':
      return target.ids.length === 1 ? '1 picked device' : `${target.ids.length.toLocaleString('en')} picked devices`;
  }
}
