DROP INDEX "devices_org_idx";--> statement-breakpoint
CREATE INDEX "devices_org_name_idx" ON "devices" USING btree ("organization_id","name","id");--> statement-breakpoint
CREATE INDEX "devices_org_online_idx" ON "devices" USING btree ("organization_id","online");