-- The settings card's "synced up to" read the watermark, which a hotel's code change sets back to
-- null so the next sync reads everything again: the card said "never synced" after syncs had run.
-- It has its own column now, kept through a rewind. Filled from the last complete sync since the
-- connection was made (or the watermark). Under scope-all: a tenant table.
ALTER TABLE "booking_connections" ADD COLUMN "synced_up_to" timestamp (3) with time zone;--> statement-breakpoint
SELECT set_config('yado.scope_all', 'on', true);--> statement-breakpoint
UPDATE booking_connections c SET synced_up_to = coalesce(
  (SELECT max(r.as_of) FROM booking_sync_runs r
    WHERE r.brand_id = c.brand_id AND r.status = 'succeeded' AND r.started_at >= c.connected_at),
  c.watermark);--> statement-breakpoint
SELECT set_config('yado.scope_all', '', true);
