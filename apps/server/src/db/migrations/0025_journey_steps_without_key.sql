-- The journey log without its foreign key: the engine writes journeys and their first log rows in
-- one statement, and the key's per-row check, planned while journeys was still empty, scanned the
-- whole table for every row written (a minute for 100,000 guests entering; docs/benchmarks.md).
ALTER TABLE "journey_steps" DROP CONSTRAINT "journey_steps_journey_id_journeys_id_fk";--> statement-breakpoint
-- What the key's ON DELETE CASCADE did: a deleted journey (its scenario or its customer deleted)
-- takes its log rows with it, once per statement, through the index on journey_id.
CREATE FUNCTION yado_journey_steps_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM journey_steps s USING gone g WHERE s.journey_id = g.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER journeys_take_their_steps AFTER DELETE ON journeys
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION yado_journey_steps_follow();
