import { boolean, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ReleaseBranch } from '@fleetlink/contract';

/**
 * Uploaded agent bundles (SPEC §3 Bundle). The archive is in the bundle store under the row's id;
 * its SHA-256 is what agents verify before they install it (issue 32).
 */
export const bundles = pgTable(
  'bundles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bundles_name_version_idx').on(t.name, t.version)],
);

/** Releases (SPEC §3 Release): named by branch and version, as `DELETE /api/release/{branch}/{version}` says. */
export const releases = pgTable(
  'releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    branch: text('branch').$type<ReleaseBranch>().notNull(),
    version: text('version').notNull(),
    notes: text('notes'),
    /** The release a console registers at its first start with the agent it was built with (issue 59): any other release takes over from it. */
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('releases_branch_version_idx').on(t.branch, t.version)],
);

/** The bundles of a release. A bundle in a release cannot be deleted (restrict). */
export const releaseBundles = pgTable(
  'release_bundles',
  {
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    bundleId: uuid('bundle_id')
      .notNull()
      .references(() => bundles.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.bundleId] })],
);
