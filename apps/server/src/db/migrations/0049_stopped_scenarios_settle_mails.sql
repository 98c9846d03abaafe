-- Stopping a scenario settles the mails it had not handed to the relay (scenarios/queries.ts
-- haltJourneys, since b5ac63d): its hidden campaigns still sending are cancelled, and their
-- deliveries queued, deferred, or claimed and not handed are skipped with the reason 'cancelled'
-- and counted as skipped in the statistics. A scenario stopped before that had its campaigns
-- cancelled but kept those deliveries as they were, so its email details still showed the mails as
-- waiting to send, and a scenario run again since would send them, long after their moment, once
-- its journeys reached that step and reopened the campaign. They are settled here as the stop settles
-- them now: only deliveries of cancelled hidden campaigns (whatever their scenario is now: stopped,
-- archived, or run again with the step not yet reached), never those of a campaign still sending;
-- counted as skipped in the campaign's, hour's, hotel's and hotel day's rollups
-- at the moment the stop cancelled the campaign (`finished_at`), in the order the send takes them.
-- A second run finds nothing left to settle. Under scope-all: these are tenant tables.
SELECT set_config('yado.scope_all', 'on', true);--> statement-breakpoint
WITH settled AS (
  UPDATE deliveries d SET status = 'skipped', skip_reason = 'cancelled', claimed_by = NULL, claim_token = NULL
  FROM campaigns c
  WHERE d.campaign_id = c.id AND c.scenario_id IS NOT NULL AND c.status = 'cancelled'
    AND (d.status IN ('queued', 'deferred') OR (d.status = 'sending' AND d.handed_at IS NULL))
  RETURNING d.campaign_id, d.brand_id, coalesce(d.hotel_id, d.brand_id) AS host_id,
    coalesce(c.finished_at, c.updated_at) AS at
), campaign_rows AS (
  INSERT INTO campaign_stats (campaign_id, brand_id, skipped)
  SELECT campaign_id, brand_id, count(*) FROM settled GROUP BY 1, 2 ORDER BY 1
  ON CONFLICT (campaign_id) DO UPDATE SET skipped = campaign_stats.skipped + excluded.skipped, updated_at = now()
  RETURNING 1
), hour_rows AS (
  INSERT INTO campaign_stats_hourly (campaign_id, hour, brand_id, skipped)
  SELECT campaign_id, date_trunc('hour', at, 'UTC'), brand_id, count(*) FROM settled GROUP BY 1, 2, 3 ORDER BY 1, 2
  ON CONFLICT (campaign_id, hour) DO UPDATE SET skipped = campaign_stats_hourly.skipped + excluded.skipped
  RETURNING 1
), host_rows AS (
  INSERT INTO campaign_host_stats (campaign_id, host_id, brand_id, skipped)
  SELECT campaign_id, host_id, brand_id, count(*) FROM settled GROUP BY 1, 2, 3 ORDER BY 1, 2
  ON CONFLICT (campaign_id, host_id) DO UPDATE SET skipped = campaign_host_stats.skipped + excluded.skipped
  RETURNING 1
), day_rows AS (
  INSERT INTO host_daily_stats (host_id, day, brand_id, skipped)
  SELECT v.host_id, (v.at AT TIME ZONE coalesce(h.timezone, 'Asia/Tokyo'))::date, v.brand_id, count(*)
  FROM settled v LEFT JOIN hosts h ON h.id = v.host_id GROUP BY 1, 2, 3 ORDER BY 1, 2
  ON CONFLICT (host_id, day) DO UPDATE SET skipped = host_daily_stats.skipped + excluded.skipped
  RETURNING 1
)
SELECT (SELECT count(*) FROM campaign_rows), (SELECT count(*) FROM hour_rows), (SELECT count(*) FROM host_rows),
  (SELECT count(*) FROM day_rows);--> statement-breakpoint
SELECT set_config('yado.scope_all', '', true);
