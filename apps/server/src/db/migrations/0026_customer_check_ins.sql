-- Each customer's check-in days, kept by PostgreSQL from the bookings, so that a segment's "stayed
-- in these days" or "not back for a year" reads the customer's own row instead of hashing every
-- booking in the range (a million customers: docs/benchmarks.md, segment-count). The days are exact
-- (a multirange of single days); the first and last day are kept apart as plain dates, so most
-- customers are answered by comparing two dates and only those with stays on both sides of the
-- asked days open the multirange.
ALTER TABLE "customers" ADD COLUMN "check_ins" datemultirange;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "first_check_in" date;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "last_check_in" date;--> statement-breakpoint
UPDATE customers c SET check_ins = s.days, first_check_in = lower(s.days), last_check_in = upper(s.days) - 1
FROM (SELECT customer_id, range_agg(daterange(check_in, check_in, '[]')) AS days FROM bookings GROUP BY customer_id) s
WHERE s.customer_id = c.id;--> statement-breakpoint
-- Recomputes the check-in days of the given customers from their bookings (none: all three null).
-- Only rows whose days changed are written.
CREATE FUNCTION yado_refresh_check_ins(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE customers c SET check_ins = s.days, first_check_in = lower(s.days), last_check_in = upper(s.days) - 1
  FROM (
    SELECT x.id, (SELECT range_agg(daterange(b.check_in, b.check_in, '[]')) FROM bookings b WHERE b.customer_id = x.id) AS days
    FROM (SELECT DISTINCT unnest(ids) AS id) x
  ) s
  WHERE c.id = s.id AND c.check_ins IS DISTINCT FROM s.days;
$$;--> statement-breakpoint
-- Once per statement, for the customers whose bookings were added, removed, or moved in customer or
-- check-in day. One function for the three triggers; each names its transition tables alike.
CREATE FUNCTION yado_check_ins_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
$$;--> statement-breakpoint
CREATE TRIGGER bookings_check_ins_added AFTER INSERT ON bookings
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION yado_check_ins_follow();--> statement-breakpoint
CREATE TRIGGER bookings_check_ins_removed AFTER DELETE ON bookings
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION yado_check_ins_follow();--> statement-breakpoint
CREATE TRIGGER bookings_check_ins_moved AFTER UPDATE ON bookings
  REFERENCING NEW TABLE AS added OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION yado_check_ins_follow();--> statement-breakpoint
CREATE TRIGGER bookings_check_ins_truncated AFTER TRUNCATE ON bookings
  FOR EACH STATEMENT EXECUTE FUNCTION yado_check_ins_follow();
--> statement-breakpoint
-- What a segment count reads of every customer in its scope when it asks only about these fields:
-- the id (for booking sets), the name keys, gender, birth date (age), prefecture and the check-in
-- days, about 150 bytes a customer, so a count over a million is an index-only scan of 157 MB
-- instead of the table's 550 to 870 MB (docs/benchmarks.md, segment-count). Fewer fields than a segment may ask about:
-- each one widens every count's read. Keyed by brand alone, new customers' entries go at its end.
CREATE INDEX "customers_segment_fields_idx" ON "customers" USING btree ("brand_id") INCLUDE ("id","last_name_key","first_name_key","gender","date_of_birth","prefecture","first_check_in","last_check_in","check_ins");
