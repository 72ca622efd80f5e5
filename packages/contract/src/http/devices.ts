import { z } from 'zod';
import { messages } from '../forms/messages.js';
import { pageSizeSchema } from './page-size.js';
import { deviceBranchSchema } from '../forms/device-form.js';
import { driveDetailSchema } from './files.js';
import { monitorSchema } from './monitors.js';
import { tunnelSchema } from './tunnels.js';

/** Device ids in paths: a malformed one is a 400 with a clear message, never a database error. */
export const deviceIdParamsSchema = z.object({ id: z.uuid({ error: 'The device id is not valid.' }) });

export const deviceOrganizationTypeSchema = z.enum(['PERSONAL', 'COMPANY']);

export const deviceOrganizationSchema = z.object({
  id: z.uuid(),
  type: deviceOrganizationTypeSchema,
  name: z.string(),
  domains: z.array(z.string()),
});

export const deviceAddressSchema = z.object({ type: z.enum(['LOCAL', 'PUBLIC']), ip: z.string() });
export type DeviceAddress = z.infer<typeof deviceAddressSchema>;

export const deviceDriveSchema = z.object({
  name: z.string().optional(),
  root: z.string(),
  totalSpace: z.number().optional(),
  freeSpace: z.number().optional(),
  /** The drive's last scan (POST /api/device/{id}/disk); null before the first one. */
  detail: driveDetailSchema.nullish(),
});
export type DeviceDrive = z.infer<typeof deviceDriveSchema>;

/** A device as members see it (SPEC §3). `properties` is null until an agent has reported. */
export const deviceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  online: z.boolean(),
  tags: z.array(z.string()),
  branch: deviceBranchSchema,
  organization: deviceOrganizationSchema,
  properties: z.record(z.string(), z.string()).nullable(),
  addresses: z.array(deviceAddressSchema),
  drives: z.array(deviceDriveSchema),
  lastResponse: z.string().nullable(),
  latency: z.number().nullable(),
  /**
   * The secret installation key the agent enrolls with (Install page): only for those who may
   * manage the device, null for the other members.
   */
  installationId: z.string().nullable(),
  /** When an agent enrolled with the current key (ISO); a used key enrolls nothing until it is reset. */
  installationKeyUsedAt: z.string().nullable(),
  servers: z.array(z.object({ url: z.string() })),
  /** Its monitors with their last readings (the Monitor tab's cards), by name. */
  monitors: z.array(monitorSchema),
  /** Its tunnels with their status (the Network tab reads them itself, GET /api/device/{id}/tunnel). */
  tunnels: z.array(tunnelSchema),
  /** Whether the caller may edit and delete it (CREATOR or ADMIN of its organization). */
  canManage: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

/** Search results carry no installation key: lists never need the secret. */
export const deviceListItemSchema = deviceSchema.omit({ installationId: true, installationKeyUsedAt: true, canManage: true });
export type DeviceListItem = z.infer<typeof deviceListItemSchema>;

export const deviceStatusFilterSchema = z.enum(['online', 'offline']);
export type DeviceStatusFilter = z.infer<typeof deviceStatusFilterSchema>;

export const DEVICE_PAGE_SIZE_MAX = 100;

/** The longest device search text. */
export const DEVICE_SEARCH_MAX = 200;

/** GET /api/devices query; `status` is omitted for all devices. */
export const deviceSearchQuerySchema = z.object({
  search: z.string().max(DEVICE_SEARCH_MAX, messages.maxLength('Search', DEVICE_SEARCH_MAX)).optional(),
  status: deviceStatusFilterSchema.optional(),
  page: z.coerce.number({ error: 'Page must be a number.' }).int('Page must be a whole number.').min(0, 'Page must be at least 0.').default(0),
  size: pageSizeSchema(DEVICE_PAGE_SIZE_MAX, 20),
});
export type DeviceSearchQuery = z.infer<typeof deviceSearchQuerySchema>;

/** Counts of the current query per tab (SPEC §3 "Device search result"). */
export const deviceTotalsSchema = z.object({ ALL: z.number().int(), ONLINE: z.number().int(), OFFLINE: z.number().int() });
export type DeviceTotals = z.infer<typeof deviceTotalsSchema>;
/**
 * Which counts are estimates (issue 69): exact up to 10,000 matches; above, a count may be an
 * estimate, rounded to two significant digits.
 */
export const deviceTotalsEstimatedSchema = z.object({ ALL: z.boolean(), ONLINE: z.boolean(), OFFLINE: z.boolean() });
export type DeviceTotalsEstimated = z.infer<typeof deviceTotalsEstimatedSchema>;

export const deviceSearchResultSchema = z.object({
  devices: z.array(deviceListItemSchema),
  totals: deviceTotalsSchema,
  estimated: deviceTotalsEstimatedSchema,
  page: z.number().int(),
  size: z.number().int(),
});
export type DeviceSearchResult = z.infer<typeof deviceSearchResultSchema>;

/** The most devices one GET /api/devices-status asks about (the recent devices are 5). */
export const DEVICE_STATUS_IDS_MAX = 20;
/** GET /api/devices-status?ids=a,b: the devices' status now, for lists kept in the browser (recent devices). */
export const deviceStatusQuerySchema = z.object({
  ids: z
    .string()
    .max(DEVICE_STATUS_IDS_MAX * 37, `At most ${DEVICE_STATUS_IDS_MAX} devices at once.`)
    .regex(/^[0-9a-f-]{36}(,[0-9a-f-]{36})*$/i, 'ids must be device ids separated by commas.'),
});
export type DeviceStatusQuery = z.infer<typeof deviceStatusQuerySchema>;
/** A device's status now; devices the caller no longer reaches (deleted, moved) are left out. */
export const deviceStatusSchema = z.object({ id: z.string(), name: z.string(), online: z.boolean(), installed: z.boolean() });
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;
export const deviceStatusListSchema = z.array(deviceStatusSchema);
export type DeviceStatusList = z.infer<typeof deviceStatusListSchema>;

/** GET /api/tags: tags of the caller's devices, for suggestions. */
export const deviceTagsSchema = z.array(z.string());
export type DeviceTags = z.infer<typeof deviceTagsSchema>;

/** GET /api/device-organizations: where the caller may create devices (CREATOR or ADMIN). */
export const deviceOrganizationOptionSchema = z.object({ id: z.uuid(), type: deviceOrganizationTypeSchema, name: z.string() });
export const deviceOrganizationOptionsSchema = z.array(deviceOrganizationOptionSchema);
export type DeviceOrganizationOptions = z.infer<typeof deviceOrganizationOptionsSchema>;
export type DeviceOrganizationOption = z.infer<typeof deviceOrganizationOptionSchema>;

/** GET /api/devices-search-reindex (realm ADMIN). */
export const deviceReindexResultSchema = z.object({ indexed: z.number().int() });
export type DeviceReindexResult = z.infer<typeof deviceReindexResultSchema>;

/** The routes of the devices capability (SPEC §7), all under /api. */
export const deviceRoutes = {
  search: { method: 'GET', path: '/api/devices', role: 'USER' },
  create: { method: 'POST', path: '/api/device', role: 'USER' },
  get: { method: 'GET', path: '/api/device/:id', role: 'USER' },
  update: { method: 'PUT', path: '/api/device/:id', role: 'USER' },
  remove: { method: 'DELETE', path: '/api/device/:id', role: 'USER' },
  tags: { method: 'GET', path: '/api/tags', role: 'USER' },
  status: { method: 'GET', path: '/api/devices-status', role: 'USER' },
  organizations: { method: 'GET', path: '/api/device-organizations', role: 'USER' },
  reindex: { method: 'GET', path: '/api/devices-search-reindex', role: 'ADMIN' },
  resetInstallationKey: { method: 'POST', path: '/api/device/:id/installation-key', role: 'USER', errors: [503] },
} as const;

/** POST /api/device/{id}/installation-key: the new key, after the old one and the agent's account were retired. */
export const installationKeyResetSchema = z.object({ installationId: z.string() });
export type InstallationKeyReset = z.infer<typeof installationKeyResetSchema>;
