CREATE TABLE "device_search" (
	"device_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"online" boolean NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "devices_org_online_idx";--> statement-breakpoint
DROP INDEX "devices_search_idx";--> statement-breakpoint
ALTER TABLE "device_search" ADD CONSTRAINT "device_search_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_search_org_name_idx" ON "device_search" USING btree ("organization_id","name","device_id");--> statement-breakpoint
CREATE INDEX "device_search_org_online_idx" ON "device_search" USING btree ("organization_id","online");--> statement-breakpoint
CREATE INDEX "device_search_document_idx" ON "device_search" USING gin ("document");--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "search";--> statement-breakpoint
-- The full-text document of a device, from its own columns: name, description, tags, id, hostname,
-- OS name and IP addresses, with the 'simple' configuration (no stemming: names and hostnames are
-- not English prose). The one definition: the sync trigger and the reindex call both use it.
CREATE FUNCTION "device_search_document"(d "devices") RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT to_tsvector('simple',
    coalesce(d.name, '') || ' ' ||
    coalesce(d.description, '') || ' ' ||
    array_to_string(d.tags, ' ') || ' ' ||
    d.id::text || ' ' ||
    coalesce(d.properties ->> 'hostname', '') || ' ' ||
    coalesce(d.properties ->> 'os.name', '') || ' ' ||
    coalesce((SELECT string_agg(a ->> 'ip', ' ') FROM jsonb_array_elements(d.addresses) a), ''))
$$;
--> statement-breakpoint
CREATE FUNCTION "device_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_search" ("device_id", "organization_id", "name", "online", "document")
  VALUES (NEW.id, NEW.organization_id, NEW.name, NEW.online, device_search_document(NEW))
  ON CONFLICT ("device_id") DO UPDATE SET
    "organization_id" = EXCLUDED."organization_id", "name" = EXCLUDED."name",
    "online" = EXCLUDED."online", "document" = EXCLUDED."document";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_search_insert" AFTER INSERT ON "devices"
  FOR EACH ROW EXECUTE FUNCTION device_search_sync();
--> statement-breakpoint
-- Only changes search can see: heartbeats, latency and load reports leave the search row alone.
-- The columns compared are the row's own and those device_search_document reads: a change to the
-- document's definition changes this list too. (Comparing the two documents instead would put
-- two to_tsvector calls on every heartbeat's update.)
CREATE TRIGGER "devices_search_update" AFTER UPDATE ON "devices" FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.name, OLD.online, OLD.description, OLD.tags, OLD.addresses,
         OLD.properties ->> 'hostname', OLD.properties ->> 'os.name')
    IS DISTINCT FROM (NEW.organization_id, NEW.name, NEW.online, NEW.description, NEW.tags, NEW.addresses,
         NEW.properties ->> 'hostname', NEW.properties ->> 'os.name'))
  EXECUTE FUNCTION device_search_sync();
--> statement-breakpoint
INSERT INTO "device_search" ("device_id", "organization_id", "name", "online", "document")
  SELECT d.id, d.organization_id, d.name, d.online, device_search_document(d) FROM "devices" d;
