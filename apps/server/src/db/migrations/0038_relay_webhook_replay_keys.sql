-- The signatures' one-time tokens (Mailgun) in a table of their own whose key is its only index
-- (schema.ts, relayWebhookReplayKeys), instead of `relay_webhook_events.replay_key` and its partial
-- unique index: planned once per connection on a new installation's empty tables, the replay check
-- probed the events by brand and walked a brand's events for every request.
CREATE TABLE "relay_webhook_replay_keys" (
	"brand_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"replay_key" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "relay_webhook_replay_keys_pkey" PRIMARY KEY("brand_id","provider","replay_key")
);
--> statement-breakpoint
INSERT INTO relay_webhook_replay_keys (brand_id, provider, replay_key, received_at)
  SELECT brand_id, provider, replay_key, received_at FROM relay_webhook_events WHERE replay_key IS NOT NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP INDEX "relay_webhook_events_replay_key";--> statement-breakpoint
ALTER TABLE "relay_webhook_events" DROP COLUMN "replay_key";--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON relay_webhook_replay_keys TO yado_app;--> statement-breakpoint
ALTER TABLE relay_webhook_replay_keys ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE relay_webhook_replay_keys FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON relay_webhook_replay_keys USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
