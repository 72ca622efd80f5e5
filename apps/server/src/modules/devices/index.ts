import type { Db } from '../../db/client.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DeviceAccounts } from '../broker/device-accounts.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { DriveScansRepository } from '../files/drive-scans.repository.js';
import { DevicesRepository } from './devices.repository.js';
import { devicesRoutes } from './devices.routes.js';
import { DevicesService } from './devices.service.js';

/** Wires the devices capability: repository → service → routes plugin options. */
export function devicesModule(db: Db, policy: OrganizationPolicy, audit: AuditTrail, tunnelDomain: string, accounts?: DeviceAccounts) {
  const repository = new DevicesRepository(db);
  return { repository, service: new DevicesService(repository, policy, audit, new DriveScansRepository(db), tunnelDomain, accounts), routes: devicesRoutes };
}
