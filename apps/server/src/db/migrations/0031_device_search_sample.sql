CREATE INDEX "device_search_org_id_idx" ON "device_search" USING btree ("organization_id","device_id");--> statement-breakpoint
-- What one search term matches: its words as a phrase, where a word the person may still be typing
-- is a prefix: the last, and a compound ('berlin-ho' of 'berlin-host'). The words before the last
-- are whole ('device' of 'device-4242'): as prefixes, 'device':* would match every device's name
-- lexemes, and PostgreSQL would read all of them for a search that finds one.
CREATE FUNCTION "device_search_term"(term text) RETURNS tsquery LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN numnode(phraseto_tsquery('simple', term)) = 0 THEN phraseto_tsquery('simple', term)
    ELSE regexp_replace(regexp_replace(phraseto_tsquery('simple', term)::text, '''([^'' ]*-[^'' ]*)''', '''\1'':*', 'g'), '''$', ''':*')::tsquery
  END
$$;
