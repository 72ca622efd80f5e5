-- A device coming online or going offline changes only the search row's "online": updated alone,
-- without making the document again and upserting the row. A fleet reconnecting after a message
-- server restart flips 50,000 devices twice, and the whole upsert took four fifths of each flip's
-- update (0.10 ms against 0.05 ms a device, issue 70). The columns compared are those of the
-- trigger's WHEN (migration 0003) but "online".
CREATE OR REPLACE FUNCTION "device_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.organization_id, OLD.name, OLD.description, OLD.tags, OLD.addresses,
         OLD.properties ->> 'hostname', OLD.properties ->> 'os.name')
    IS NOT DISTINCT FROM (NEW.organization_id, NEW.name, NEW.description, NEW.tags, NEW.addresses,
         NEW.properties ->> 'hostname', NEW.properties ->> 'os.name') THEN
    UPDATE "device_search" SET "online" = NEW.online WHERE "device_id" = NEW.id;
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  INSERT INTO "device_search" ("device_id", "organization_id", "name", "online", "document")
  VALUES (NEW.id, NEW.organization_id, NEW.name, NEW.online, device_search_document(NEW))
  ON CONFLICT ("device_id") DO UPDATE SET
    "organization_id" = EXCLUDED."organization_id", "name" = EXCLUDED."name",
    "online" = EXCLUDED."online", "document" = EXCLUDED."document";
  RETURN NULL;
END
$$;
