ALTER TABLE "organization_domains" DROP CONSTRAINT "organization_domains_domain_unique";--> statement-breakpoint
ALTER TABLE "organization_domains" ADD COLUMN "challenge_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_domains" ADD COLUMN "proven_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_org_domain_idx" ON "organization_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_proven_idx" ON "organization_domains" USING btree ("domain") WHERE "organization_domains"."proven_at" is not null;