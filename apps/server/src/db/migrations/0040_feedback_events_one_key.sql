-- A feedback event is one per delivery and kind: that unique index alone makes a repeated report a
-- no-op and finds a delivery's events, instead of a text key (`dedupe_key`, the kind and the
-- delivery spelled out) with a unique index by brand, an index by delivery and an index by brand and
-- time that no query read. Under issue 25's bench the event's insert was the rules' dearest
-- statement in PostgreSQL (20 µs an event, 840 bytes of WAL); a delivery is one brand's, so the
-- rows already kept are unique by delivery and kind.
CREATE UNIQUE INDEX "feedback_events_delivery_kind_key" ON "feedback_events" USING btree ("delivery_id","kind");--> statement-breakpoint
DROP INDEX "feedback_events_dedupe_key";--> statement-breakpoint
DROP INDEX "feedback_events_delivery_idx";--> statement-breakpoint
DROP INDEX "feedback_events_brand_at_idx";--> statement-breakpoint
ALTER TABLE "feedback_events" DROP COLUMN "dedupe_key";
