import type { Db } from '../../db/client.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { DeviceAccounts } from '../broker/device-accounts.js';
import { InstallationKeys } from '../enrollment/installation-keys.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { DevicesRepository } from './devices.repository.js';
import { devicesRoutes } from './devices.routes.js';
import { DevicesService } from './devices.service.js';

/** Wires the devices capability: repository → service → routes plugin options. */
export function devicesModule(db: Db, box: SecretBox, policy: OrganizationPolicy, audit: AuditTrail, tunnelDomain: string, accounts?: DeviceAccounts) {
  const repository = new DevicesRepository(db, new InstallationKeys(box));
  return { repository, service: new DevicesService(repository, policy, audit, tunnelDomain, accounts), routes: devicesRoutes };
}
