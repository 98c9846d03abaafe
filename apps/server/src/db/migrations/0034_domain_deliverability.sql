CREATE TABLE "sending_domain_stats_hourly" (
	"brand_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"handed" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"hard_bounces" integer DEFAULT 0 NOT NULL,
	"soft_bounces" integer DEFAULT 0 NOT NULL,
	"complaints" integer DEFAULT 0 NOT NULL,
	"policy_blocks" integer DEFAULT 0 NOT NULL,
	"auto_replies" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sending_domain_stats_hourly_brand_id_domain_hour_pk" PRIMARY KEY("brand_id","domain","hour")
);
--> statement-breakpoint
ALTER TABLE "inbound_unparsed" ALTER COLUMN "raw" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "relay_webhook_events" ALTER COLUMN "raw" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "feedback_events_policy_block_idx" ON "feedback_events" USING btree ("brand_id","sending_domain","received_at") WHERE kind = 'policy_block';--> statement-breakpoint
CREATE INDEX "feedback_events_raw_at_idx" ON "feedback_events" USING btree ("received_at") WHERE raw is not null;--> statement-breakpoint
CREATE INDEX "inbound_unparsed_raw_at_idx" ON "inbound_unparsed" USING btree ("received_at") WHERE raw is not null;--> statement-breakpoint
CREATE INDEX "relay_webhook_events_raw_at_idx" ON "relay_webhook_events" USING btree ("received_at") WHERE raw is not null;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON sending_domain_stats_hourly TO yado_app;--> statement-breakpoint
ALTER TABLE sending_domain_stats_hourly ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE sending_domain_stats_hourly FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON sending_domain_stats_hourly USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
-- The retention job (deliverability/prune-feedback-raw.ts) clears the raw reports, and nothing else.
GRANT UPDATE (raw) ON feedback_events, inbound_unparsed TO yado_app;
