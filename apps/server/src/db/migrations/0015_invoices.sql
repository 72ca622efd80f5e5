CREATE TABLE "device_lifetimes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"device_name" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"period" text NOT NULL,
	"invoice_date" date NOT NULL,
	"seller" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"days_in_period" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"reverse_charge" boolean NOT NULL,
	"vat_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "invoice_links" ADD CONSTRAINT "invoice_links_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_lifetimes_span_idx" ON "device_lifetimes" USING btree ("started_at","ended_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_lifetimes_open_idx" ON "device_lifetimes" USING btree ("device_id") WHERE "device_lifetimes"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_org_period_idx" ON "invoices" USING btree ("organization_id","period");--> statement-breakpoint
CREATE INDEX "invoices_org_date_idx" ON "invoices" USING btree ("organization_id","invoice_date" DESC NULLS LAST);--> statement-breakpoint
-- Devices that exist already: billed from their creation on (the history before this migration is
-- not known; a device deleted before it was never billed).
INSERT INTO "device_lifetimes" ("device_id", "organization_id", "device_name", "started_at")
  SELECT "id", "organization_id", "name", "created_at" FROM "devices";
--> statement-breakpoint
-- The lifetime history follows every device write that bills differently: created (a row opens at
-- its creation time), moved to another organization (the open row closes, a new one opens), renamed
-- (the open row's name follows), deleted (the open row closes).
CREATE FUNCTION "device_lifetimes_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND (TG_OP = 'DELETE' OR OLD.organization_id <> NEW.organization_id) THEN
    UPDATE "device_lifetimes" SET "ended_at" = now() WHERE "device_id" = OLD.id AND "ended_at" IS NULL;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND OLD.organization_id <> NEW.organization_id) THEN
    INSERT INTO "device_lifetimes" ("device_id", "organization_id", "device_name", "started_at")
      VALUES (NEW.id, NEW.organization_id, NEW.name, CASE WHEN TG_OP = 'INSERT' THEN NEW.created_at ELSE now() END);
  ELSIF TG_OP = 'UPDATE' AND OLD.name <> NEW.name THEN
    UPDATE "device_lifetimes" SET "device_name" = NEW.name WHERE "device_id" = NEW.id AND "ended_at" IS NULL;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_lifetimes_insert_delete" AFTER INSERT OR DELETE ON "devices"
  FOR EACH ROW EXECUTE FUNCTION device_lifetimes_sync();
--> statement-breakpoint
-- Heartbeats rewrite device rows all the time; only a move or a rename touches the history.
CREATE TRIGGER "devices_lifetimes_update" AFTER UPDATE ON "devices" FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION device_lifetimes_sync();
