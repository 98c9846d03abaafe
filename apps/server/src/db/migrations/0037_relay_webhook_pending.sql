-- The relay webhook events still to be applied, in a narrow table of their own (schema.ts,
-- relayWebhookPending) instead of `relay_webhook_events.applied_at`: marking an event applied wrote
-- the whole event again, payload and indexes.
CREATE TABLE "relay_webhook_pending" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL
);
--> statement-breakpoint
INSERT INTO relay_webhook_pending (event_id, brand_id)
  SELECT id, brand_id FROM relay_webhook_events WHERE applied_at IS NULL;--> statement-breakpoint
DROP INDEX "relay_webhook_events_pending_idx";--> statement-breakpoint
ALTER TABLE "relay_webhook_events" DROP COLUMN "applied_at";--> statement-breakpoint
-- UPDATE for the applier's `for update skip locked` claim.
GRANT SELECT, INSERT, UPDATE, DELETE ON relay_webhook_pending TO yado_app;--> statement-breakpoint
ALTER TABLE relay_webhook_pending ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE relay_webhook_pending FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON relay_webhook_pending USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
