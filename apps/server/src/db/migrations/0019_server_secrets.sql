ALTER TABLE "servers" ADD COLUMN "built_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The built-in broker's and proxy's registrations, as an earlier console recorded them.
UPDATE "servers" SET "built_in" = true WHERE "id"::text IN (SELECT "value" #>> '{}' FROM "broker_settings" WHERE "name" IN ('embeddedServerId', 'embeddedProxyServerId'));
