-- Each api process caches every journey's latest version (src/journeys/latest-versions.ts); a new, changed or deleted
-- version, from whatever writes it (import, CLI, SQL), tells them at once through NOTIFY journey_versions_changed.
CREATE FUNCTION notify_journey_versions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('journey_versions_changed', COALESCE(NEW.journey_id, OLD.journey_id)::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER journey_versions_changed
  AFTER INSERT OR UPDATE OR DELETE ON journey_versions
  FOR EACH ROW EXECUTE FUNCTION notify_journey_versions_changed();
