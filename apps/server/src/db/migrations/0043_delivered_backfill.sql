-- Issue 25: "delivered" leaves the mails that bounced after the relay accepted them (0041), but only
-- for bounces reported since. Those reported before still counted as delivered: each such mail (a
-- `sent` delivery with a hard or soft bounce recorded) is marked here, once, with its first bounce's
-- time, and taken out of `delivered` where the send counted it, as rollups.ts undeliveredQuery does
-- for a bounce reported now: the campaign's total, its hour, its hotel, the hotel's day and the
-- sending domain's hour (the hour or day of `sent_at` if it counted a delivered mail, else the next,
-- else the one before); only rows with some delivered change, none below zero. Rates of delivered
-- (opens, clicks, complaints) follow. Run under scope-all: the rollups and deliveries are tenant tables.
SELECT set_config('yado.scope_all', 'on', true);--> statement-breakpoint
WITH first_bounce AS (
  SELECT DISTINCT ON (delivery_id) delivery_id, received_at, lower(sending_domain) AS domain
  FROM feedback_events WHERE kind IN ('hard_bounce', 'soft_bounce')
  ORDER BY delivery_id, received_at, id
), marked AS (
  UPDATE deliveries d SET bounced_at = f.received_at FROM first_bounce f
  WHERE d.id = f.delivery_id AND d.status = 'sent' AND d.sent_at IS NOT NULL AND d.bounced_at IS NULL
  RETURNING d.campaign_id, d.brand_id, coalesce(d.hotel_id, d.brand_id) AS host_id, d.sent_at, f.domain
), v AS (
  SELECT m.*, date_trunc('hour', m.sent_at, 'UTC') AS own_hour,
    (m.sent_at AT TIME ZONE coalesce(h.timezone, 'Asia/Tokyo'))::date AS own_day
  FROM marked m LEFT JOIN hosts h ON h.id = m.host_id
), placed AS (
  SELECT v.campaign_id, v.brand_id, v.host_id, v.domain,
    coalesce((SELECT c.hour FROM campaign_stats_hourly c WHERE c.campaign_id = v.campaign_id AND c.delivered > 0
        AND c.hour IN (v.own_hour, v.own_hour + interval '1 hour', v.own_hour - interval '1 hour')
        ORDER BY c.hour = v.own_hour DESC, c.hour > v.own_hour DESC LIMIT 1), v.own_hour) AS hour,
    coalesce((SELECT c.day FROM host_daily_stats c WHERE c.host_id = v.host_id AND c.delivered > 0
        AND c.day IN (v.own_day, v.own_day + 1, v.own_day - 1)
        ORDER BY c.day = v.own_day DESC, c.day > v.own_day DESC LIMIT 1), v.own_day) AS day,
    coalesce((SELECT c.hour FROM sending_domain_stats_hourly c WHERE c.brand_id = v.brand_id AND c.domain = v.domain
        AND c.delivered > 0 AND c.hour IN (v.own_hour, v.own_hour + interval '1 hour', v.own_hour - interval '1 hour')
        ORDER BY c.hour = v.own_hour DESC, c.hour > v.own_hour DESC LIMIT 1), v.own_hour) AS domain_hour
  FROM v
), campaign_rows AS (
  UPDATE campaign_stats t SET delivered = greatest(t.delivered - n.n, 0), updated_at = now()
  FROM (SELECT campaign_id, count(*)::int AS n FROM placed GROUP BY 1) n
  WHERE t.campaign_id = n.campaign_id AND t.delivered > 0 RETURNING 1
), hour_rows AS (
  UPDATE campaign_stats_hourly t SET delivered = greatest(t.delivered - n.n, 0)
  FROM (SELECT campaign_id, hour, count(*)::int AS n FROM placed GROUP BY 1, 2) n
  WHERE t.campaign_id = n.campaign_id AND t.hour = n.hour AND t.delivered > 0 RETURNING 1
), host_rows AS (
  UPDATE campaign_host_stats t SET delivered = greatest(t.delivered - n.n, 0)
  FROM (SELECT campaign_id, host_id, count(*)::int AS n FROM placed GROUP BY 1, 2) n
  WHERE t.campaign_id = n.campaign_id AND t.host_id = n.host_id AND t.delivered > 0 RETURNING 1
), day_rows AS (
  UPDATE host_daily_stats t SET delivered = greatest(t.delivered - n.n, 0)
  FROM (SELECT host_id, day, count(*)::int AS n FROM placed GROUP BY 1, 2) n
  WHERE t.host_id = n.host_id AND t.day = n.day AND t.delivered > 0 RETURNING 1
), domain_rows AS (
  UPDATE sending_domain_stats_hourly t SET delivered = greatest(t.delivered - n.n, 0)
  FROM (SELECT brand_id, domain, domain_hour AS hour, count(*)::int AS n FROM placed WHERE domain IS NOT NULL GROUP BY 1, 2, 3) n
  WHERE t.brand_id = n.brand_id AND t.domain = n.domain AND t.hour = n.hour AND t.delivered > 0 RETURNING 1
)
SELECT (SELECT count(*) FROM campaign_rows), (SELECT count(*) FROM hour_rows), (SELECT count(*) FROM host_rows),
  (SELECT count(*) FROM day_rows), (SELECT count(*) FROM domain_rows);--> statement-breakpoint
SELECT set_config('yado.scope_all', '', true);
