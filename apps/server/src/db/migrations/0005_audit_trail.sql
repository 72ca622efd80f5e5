CREATE TABLE "audit_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"time" timestamp (3) with time zone NOT NULL,
	"username" text,
	"subject" text,
	"client_address" text,
	"kind" text NOT NULL,
	"organization_id" uuid,
	"organization_name" text,
	"device_id" uuid,
	"device_name" text,
	"details" json DEFAULT '{}'::json NOT NULL,
	"outcome" text NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "audit_time_idx" ON "audit_entries" USING btree ("time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_organization_idx" ON "audit_entries" USING btree ("organization_id","time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_device_idx" ON "audit_entries" USING btree ("device_id","time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_device_name_idx" ON "audit_entries" USING btree (lower("device_name"),"time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_username_idx" ON "audit_entries" USING btree ("username","time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_kind_idx" ON "audit_entries" USING btree ("kind","time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_outcome_idx" ON "audit_entries" USING btree ("outcome","time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Append-only, enforced by the database itself: no code path, and no one with a SQL prompt and the
-- console's credentials, can rewrite or erase what happened.
CREATE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_entries_append_only"();
