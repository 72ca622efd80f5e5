import { AuditKind, type LivePart } from '@fleetlink/contract';
import type { AfterAction } from '../audit/audit-trail.js';
import type { LiveChanges } from './live-bus.js';

/** What of a device each person's action changes, as the device's pages read it. */
const DEVICE_PARTS: Partial<Record<AuditKind, LivePart>> = {
  [AuditKind.DeviceCreate]: 'settings',
  [AuditKind.DeviceUpdate]: 'settings',
  [AuditKind.DeviceKeyReset]: 'settings',
  [AuditKind.DeviceEnroll]: 'settings',
  [AuditKind.DeviceMigrate]: 'settings',
  [AuditKind.DeviceDelete]: 'removed',
  [AuditKind.DriveScan]: 'drives',
  [AuditKind.MonitorCreate]: 'monitors',
  [AuditKind.MonitorUpdate]: 'monitors',
  [AuditKind.MonitorDelete]: 'monitors',
  [AuditKind.TunnelCreate]: 'tunnels',
  [AuditKind.TunnelUpdate]: 'tunnels',
  [AuditKind.TunnelDelete]: 'tunnels',
  [AuditKind.TunnelConnect]: 'tunnels',
  [AuditKind.TunnelDisconnect]: 'tunnels',
};

/** Actions that change what the Servers page shows (status, or how many devices a server has). */
const SERVER_KINDS: ReadonlySet<AuditKind> = new Set([
  AuditKind.ServerCreate,
  AuditKind.ServerUpdate,
  AuditKind.ServerDelete,
  AuditKind.ServersReload,
  AuditKind.DeviceEnroll,
  AuditKind.DeviceMigrate,
  AuditKind.DeviceDelete,
]);

/** Actions that change what the Releases page shows. */
const RELEASE_KINDS: ReadonlySet<AuditKind> = new Set([
  AuditKind.ReleaseCreate,
  AuditKind.ReleaseDelete,
  AuditKind.RolloutSet,
  AuditKind.RolloutWave,
  AuditKind.RolloutHalt,
  AuditKind.RolloutPause,
  AuditKind.RolloutResume,
  AuditKind.RolloutAbort,
  AuditKind.RolloutRollback,
]);

/** Actions that change who belongs to an organization (its creator joins the one created). */
const ACCESS_KINDS: ReadonlySet<AuditKind> = new Set([AuditKind.OrganizationCreate, AuditKind.MemberAdd, AuditKind.MemberRemove, AuditKind.OrganizationDelete]);

/**
 * Every action a person (or an agent enrolling) takes goes through the audit trail, once, after it
 * succeeded: the one place that tells the live channel what changed, whichever service acted.
 */
export function liveAfterAction(live: LiveChanges): AfterAction {
  return (action, actor) => {
    const part = DEVICE_PARTS[action.kind];
    if (part && action.deviceId) live.device(action.deviceId, part, { org: action.organizationId });
    if (SERVER_KINDS.has(action.kind)) live.servers();
    if (RELEASE_KINDS.has(action.kind)) live.releases();
    if (ACCESS_KINDS.has(action.kind) && action.organizationId) {
      const email = action.kind === AuditKind.OrganizationCreate ? actor.username : action.details?.email;
      live.access(action.organizationId, typeof email === 'string' ? email.toLowerCase() : undefined);
    }
  };
}
