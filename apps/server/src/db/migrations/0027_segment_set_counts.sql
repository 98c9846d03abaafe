-- A segment count made of sets (filter-count.ts) reads only the customers its groups name, from
-- these indexes, instead of passing over every customer (docs/benchmarks.md, segment-count).
--
-- The fields a count asks about, keyed by family name: a family-name group is a range of it, and a
-- count that must pass over the brand reads it whole as before. It serves the family-name search
-- too, so the narrower index on the family name alone goes: each index costs every imported
-- customer one more descent.
DROP INDEX "customers_segment_fields_idx";--> statement-breakpoint
DROP INDEX "customers_last_name_key_idx";--> statement-breakpoint
CREATE INDEX "customers_segment_fields_idx" ON "customers" USING btree ("brand_id","last_name_key" text_pattern_ops) INCLUDE ("id","first_name_key","gender","date_of_birth","prefecture","first_check_in","last_check_in","check_ins");--> statement-breakpoint
-- How many customers were last here in some days: counted from the keys alone (about 7 MB at a
-- million, the dates deduplicated).
CREATE INDEX "customers_last_check_in_idx" ON "customers" USING btree ("brand_id","last_check_in");--> statement-breakpoint
-- Who they are, and for those back since some days, whether they stayed in them.
CREATE INDEX "customers_check_in_days_idx" ON "customers" USING btree ("brand_id","last_check_in") INCLUDE ("id","first_check_in","check_ins");--> statement-breakpoint
-- A count takes the customers of a brand's bookings as the brand's customers: a booking written
-- for another brand's customer is refused, whoever writes it.
CREATE OR REPLACE FUNCTION yado_check_ins_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nested: a statement naming `added` is planned only where the trigger has that table.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM added a JOIN customers c ON c.id = a.customer_id WHERE c.brand_id <> a.brand_id) THEN
      RAISE EXCEPTION 'a booking belongs to its customer''s brand' USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM yado_refresh_check_ins(array(SELECT customer_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM yado_refresh_check_ins(array(SELECT customer_id FROM removed));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM yado_refresh_check_ins(array(
      SELECT unnest(array[n.customer_id, o.customer_id]) FROM added n JOIN removed o ON o.id = n.id
      WHERE n.customer_id <> o.customer_id OR n.check_in <> o.check_in));
  ELSE
    UPDATE customers SET check_ins = NULL, first_check_in = NULL, last_check_in = NULL WHERE check_ins IS NOT NULL;
  END IF;
  RETURN NULL;
END;
$$;
