import { z } from 'zod';
import { type DeviceBranch } from '../forms/device-form.js';
import { messages, requiredText } from '../forms/messages.js';
import { agentReleaseRoutes, releaseBranches } from './agent-release.js';
import { releaseStandingSchema } from './agent-update.js';
import { rolloutFormDefaults, rolloutFormSchema, rolloutSchema } from './rollouts.js';

/**
 * Agent bundles and releases (SPEC §2 /agent, §3 Bundle and Release, §5 Release, §7 Bundles and
 * releases). A bundle is an archive of agent code with a manifest; a release binds bundle versions to
 * a release branch, and devices take the newest release (semver order) of the branches theirs follows.
 */

/** Semantic Versioning 2.0.0, as semver.org gives it: 1.2.3, 1.2.3-rc.1, 1.2.3+build.5. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
export const VERSION_MAX = 64;
/** A bundle name is a package-like name: it becomes part of paths on devices (issue 32). */
export const BUNDLE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
export const BUNDLE_NAME_MAX = 64;
export const RELEASE_NOTES_MAX = 4096;
/** At most this many bundles in one release. */
export const RELEASE_BUNDLES_MAX = 20;
/** Where the manifest sits in a bundle archive, and its size limit. */
export const BUNDLE_MANIFEST = 'manifest.json';
export const BUNDLE_MANIFEST_MAX_BYTES = 64 * 1024;
/** The default limit of a bundle upload (the console's BUNDLE_MAX_BYTES). */
export const BUNDLE_MAX_BYTES_DEFAULT = 64 * 1024 * 1024;
/** The multipart field holding the archive of `POST /api/bundle`. */
export const BUNDLE_UPLOAD_FIELD = 'file';

export const releaseBranchSchema = z.enum(releaseBranches);
export type ReleaseBranch = z.infer<typeof releaseBranchSchema>;

/**
 * The release branches a device's branch follows, most eager first: a device takes the newest
 * release (semver order) among them. Early-access devices get acceptance releases and stable ones;
 * DEVELOPMENT and TEST releases reach no device branch (they are for the makers' own tests).
 */
export const releaseBranchesFor: Record<DeviceBranch, readonly ReleaseBranch[]> = {
  PRODUCTION: ['PRODUCTION'],
  ACCEPTANCE: ['ACCEPTANCE', 'PRODUCTION'],
};

/** The device branches that take releases of `branch`: `releaseBranchesFor` read the other way. */
export const deviceBranchesFollowing = (branch: ReleaseBranch): DeviceBranch[] =>
  (Object.keys(releaseBranchesFor) as DeviceBranch[]).filter((d) => releaseBranchesFor[d].includes(branch));

const versionText = (label: string) => requiredText(label, VERSION_MAX).regex(SEMVER_PATTERN, messages.pattern(label));
const bundleNameText = (label: string) => requiredText(label, BUNDLE_NAME_MAX).regex(BUNDLE_NAME_PATTERN, messages.pattern(label));

/** `manifest.json` at the root of a bundle archive. Other keys are the bundle's own business. */
export interface BundleManifest {
  name: string;
  version: string;
}

/** A bundle as administrators see it (SPEC §3: name, version), with what the upload stored. */
export const bundleSchema = z.object({
  name: z.string(),
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
});
export type Bundle = z.infer<typeof bundleSchema>;
export const bundleListSchema = z.array(bundleSchema);
export type BundleList = z.infer<typeof bundleListSchema>;

export const bundleNameParamsSchema = z.object({ name: bundleNameText('Name') });
export const bundleParamsSchema = z.object({ name: bundleNameText('Name'), version: versionText('Version') });

export const releaseLabels = { version: 'Version', branch: 'Branch', notes: 'Notes', bundleName: 'Name', bundleVersion: 'Version' } as const;

/** One bundle row of the release form: each needs both (SPEC §5). */
export const releaseBundleSchema = z.object({
  name: z.string({ error: messages.required(releaseLabels.bundleName) }).trim().min(1, messages.required(releaseLabels.bundleName)),
  version: z.string({ error: messages.required(releaseLabels.bundleVersion) }).trim().min(1, messages.required(releaseLabels.bundleVersion)),
});
export type ReleaseBundle = z.infer<typeof releaseBundleSchema>;

/** The release form (SPEC §5) and `POST /api/release`. */
export const releaseFormSchema = z.object({
  version: versionText(releaseLabels.version),
  branch: z.enum(releaseBranches, { error: messages.required(releaseLabels.branch) }),
  notes: z
    .string({ error: `${releaseLabels.notes} must be text.` })
    .trim()
    .max(RELEASE_NOTES_MAX, messages.maxLength(releaseLabels.notes, RELEASE_NOTES_MAX))
    .nullish(),
  bundles: z
    .array(releaseBundleSchema, { error: 'Bundles must be a list.' })
    .min(1, 'Add at least one bundle.')
    .max(RELEASE_BUNDLES_MAX, `A release holds at most ${RELEASE_BUNDLES_MAX} bundles.`)
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((row, i) => {
        if (seen.has(row.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `Bundle ${row.name} is in the release twice.` });
        seen.add(row.name);
      });
    }),
  /** How it reaches devices (issue 65): all at once when absent. */
  rollout: rolloutFormSchema.optional(),
});
export type ReleaseForm = z.infer<typeof releaseFormSchema>;
export type ReleaseFormInput = z.input<typeof releaseFormSchema>;

/** Initial values of the release form (SPEC §5: branch PRODUCTION; one empty bundle row). */
export const releaseFormDefaults = {
  version: '',
  branch: 'PRODUCTION' as ReleaseBranch,
  notes: '',
  bundles: [{ name: '', version: '' }],
  rollout: rolloutFormDefaults,
};

export const releaseSchema = z.object({
  branch: releaseBranchSchema,
  version: z.string(),
  notes: z.string().nullable(),
  bundles: z.array(z.object({ name: z.string(), version: z.string() })),
  createdAt: z.string(),
  /** Registered by the console at its first start, with the agent it was built with; any other release takes over from it. */
  builtIn: z.boolean(),
  /** Where it stands on devices (issue 32); in the list only. */
  devices: releaseStandingSchema.optional(),
  /** Its staged rollout (issue 65); null for a release that reached every device at once. In the list only. */
  rollout: rolloutSchema.nullable().optional(),
});
export type Release = z.infer<typeof releaseSchema>;
export const releaseListSchema = z.array(releaseSchema);
export type ReleaseList = z.infer<typeof releaseListSchema>;

export const releaseParamsSchema = z.object({
  branch: z.enum(releaseBranches, { error: `Branch must be one of ${releaseBranches.join(', ')}.` }),
  version: versionText(releaseLabels.version),
});

/**
 * What an agent reads of the release its device should run: what to fetch and how to verify it.
 * The agent reads it with readAgentRelease (agent-release.ts), which must agree with this schema.
 */
export const agentReleaseSchema = z.object({
  release: z
    .object({
      branch: releaseBranchSchema,
      version: z.string(),
      bundles: z.array(z.object({ name: z.string(), version: z.string(), sha256: z.string(), size: z.number().int() })),
    })
    .nullable(),
  /**
   * A newer release a staged rollout holds back from this device (issue 65): the device keeps
   * `release` and waits for its wave. Absent when none does.
   */
  waiting: z
    .object({
      branch: releaseBranchSchema,
      version: z.string(),
      /** The device's wave, from 1. */
      wave: z.number().int(),
      /** The latest wave started. */
      started: z.number().int(),
      state: z.string(),
    })
    .optional(),
});
export type AgentRelease = z.infer<typeof agentReleaseSchema>;

/** SPEC §7 Bundles and releases (realm ADMIN), and the agents' own route (device account, HTTP Basic). */
export const releaseRoutes = {
  bundles: { method: 'GET', path: '/api/bundles', role: 'ADMIN' },
  bundleNames: { method: 'GET', path: '/api/bundle-names', role: 'ADMIN' },
  bundleVersions: { method: 'GET', path: '/api/bundle-versions/:name', role: 'ADMIN' },
  uploadBundle: { method: 'POST', path: '/api/bundle', role: 'ADMIN', errors: [409] },
  deleteBundle: { method: 'DELETE', path: '/api/bundle/:name/:version', role: 'ADMIN', errors: [409] },
  releases: { method: 'GET', path: '/api/releases', role: 'ADMIN' },
  createRelease: { method: 'POST', path: '/api/release', role: 'ADMIN', errors: [409] },
  deleteRelease: { method: 'DELETE', path: '/api/release/:branch/:version', role: 'ADMIN' },
  ...agentReleaseRoutes,
} as const;
