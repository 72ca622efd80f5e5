ALTER TABLE "devices" ADD COLUMN "installation_key_used_at" timestamp with time zone;--> statement-breakpoint
-- A device whose agent already enrolled has used its key: it opens nothing more until a manager resets it.
UPDATE "devices" SET "installation_key_used_at" = "device_credentials"."created_at" FROM "device_credentials" WHERE "device_credentials"."device_id" = "devices"."id";
