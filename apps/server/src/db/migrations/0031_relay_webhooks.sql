CREATE TABLE "relay_webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"replay_key" text,
	"delivery_id" uuid,
	"kind" text,
	"feedback" jsonb,
	"raw" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "relay_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"secret" text,
	"topic_arn" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "relay_webhooks" ADD CONSTRAINT "relay_webhooks_brand_id_hosts_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relay_webhook_events_event_key" ON "relay_webhook_events" USING btree ("brand_id","provider","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "relay_webhook_events_replay_key" ON "relay_webhook_events" USING btree ("brand_id","provider","replay_key") WHERE replay_key is not null;--> statement-breakpoint
CREATE INDEX "relay_webhook_events_pending_idx" ON "relay_webhook_events" USING btree ("id") WHERE applied_at is null;--> statement-breakpoint
CREATE INDEX "relay_webhook_events_brand_at_idx" ON "relay_webhook_events" USING btree ("brand_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "relay_webhooks_brand_provider_key" ON "relay_webhooks" USING btree ("brand_id","provider");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON relay_webhooks TO yado_app;--> statement-breakpoint
ALTER TABLE relay_webhooks ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE relay_webhooks FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON relay_webhooks USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON relay_webhook_events TO yado_app;--> statement-breakpoint
GRANT USAGE ON SEQUENCE relay_webhook_events_id_seq TO yado_app;--> statement-breakpoint
ALTER TABLE relay_webhook_events ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE relay_webhook_events FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON relay_webhook_events USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
-- The soft-bounce rule (apply-feedback.ts) reads each guest's last 5 answered sends; without this
-- it scanned the deliveries once per soft bounce.
CREATE INDEX deliveries_customer_answered_idx ON deliveries (customer_id, (coalesce(sent_at, created_at)) DESC, id DESC) WHERE status IN ('sent', 'failed');
