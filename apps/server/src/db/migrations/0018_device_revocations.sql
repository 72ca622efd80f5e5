CREATE TABLE "device_revocations" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"server_id" uuid,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tunnels" ADD COLUMN "refusal" text;--> statement-breakpoint
CREATE INDEX "device_revocations_at_idx" ON "device_revocations" USING btree ("at");--> statement-breakpoint
-- Every change that takes a channel from a device records it here, in its own transaction: a
-- deleted device, an MQTT account deleted or given another password (a key reset, an enrollment
-- with a new key), an assignment to a server ended (a migration, a device deleted). Tunnel proxies
-- read the rows to end the SSH connections those devices still hold.
CREATE FUNCTION "device_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'devices' THEN
    INSERT INTO "device_revocations" ("device_id", "reason") VALUES (OLD."id", 'deleted');
  ELSIF TG_TABLE_NAME = 'device_credentials' THEN
    IF TG_OP = 'DELETE' OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash" THEN
      INSERT INTO "device_revocations" ("device_id", "reason") VALUES (OLD."device_id", 'rekeyed');
    END IF;
  ELSIF TG_OP = 'DELETE' OR OLD."server_id" IS DISTINCT FROM NEW."server_id" THEN
    INSERT INTO "device_revocations" ("device_id", "server_id", "reason") VALUES (OLD."device_id", OLD."server_id", 'moved');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_revoked" AFTER DELETE ON "devices" FOR EACH ROW EXECUTE FUNCTION "device_revoked"();
--> statement-breakpoint
CREATE TRIGGER "device_credentials_revoked" AFTER UPDATE OR DELETE ON "device_credentials" FOR EACH ROW EXECUTE FUNCTION "device_revoked"();
--> statement-breakpoint
CREATE TRIGGER "device_servers_revoked" AFTER UPDATE OR DELETE ON "device_servers" FOR EACH ROW EXECUTE FUNCTION "device_revoked"();
