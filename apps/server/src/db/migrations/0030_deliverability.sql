-- Deliverability (issue 25): the per-brand suppression list, the feedback events (synchronous
-- answers, DSNs and complaint reports, deduplicated per delivery and kind) and the inbound mail
-- the feedback receiver could not read (kept and counted). Addresses that hard-bounced before
-- (customers.email_bounced_at) become the first hard-bounce suppressions. Every statistics rollup
-- gains hard bounces, soft bounces and complaints.
CREATE TABLE "feedback_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"customer_id" uuid,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"status" text,
	"diagnostic" text,
	"sending_domain" text,
	"dedupe_key" text NOT NULL,
	"raw" "bytea",
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_unparsed" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"delivery_id" uuid,
	"reason" text NOT NULL,
	"mail_from" text NOT NULL,
	"rcpt_to" text NOT NULL,
	"size" integer NOT NULL,
	"raw" "bytea" NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"email" text NOT NULL,
	"customer_id" uuid,
	"reason" text NOT NULL,
	"diagnostic" text,
	"delivery_id" uuid,
	"campaign_id" uuid,
	"scenario_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid
);
--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_events_dedupe_key" ON "feedback_events" USING btree ("brand_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "feedback_events_delivery_idx" ON "feedback_events" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "feedback_events_customer_idx" ON "feedback_events" USING btree ("customer_id","kind") WHERE customer_id is not null;--> statement-breakpoint
CREATE INDEX "feedback_events_brand_at_idx" ON "feedback_events" USING btree ("brand_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_unparsed_brand_at_idx" ON "inbound_unparsed" USING btree ("brand_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_active_key" ON "suppressions" USING btree ("brand_id","email") WHERE lifted_at is null;--> statement-breakpoint
CREATE INDEX "suppressions_brand_created_idx" ON "suppressions" USING btree ("brand_id","created_at");--> statement-breakpoint
ALTER TABLE "campaign_host_stats" ADD COLUMN "hard_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_host_stats" ADD COLUMN "soft_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_host_stats" ADD COLUMN "complaints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats" ADD COLUMN "hard_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats" ADD COLUMN "soft_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats" ADD COLUMN "complaints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats_hourly" ADD COLUMN "hard_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats_hourly" ADD COLUMN "soft_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_stats_hourly" ADD COLUMN "complaints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "host_daily_stats" ADD COLUMN "hard_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "host_daily_stats" ADD COLUMN "soft_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "host_daily_stats" ADD COLUMN "complaints" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON suppressions TO yado_app;--> statement-breakpoint
ALTER TABLE suppressions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE suppressions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON suppressions USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT ON feedback_events TO yado_app;--> statement-breakpoint
GRANT USAGE ON SEQUENCE feedback_events_id_seq TO yado_app;--> statement-breakpoint
ALTER TABLE feedback_events ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE feedback_events FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON feedback_events USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT ON inbound_unparsed TO yado_app;--> statement-breakpoint
ALTER TABLE inbound_unparsed ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE inbound_unparsed FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON inbound_unparsed USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
INSERT INTO suppressions (brand_id, email, customer_id, reason, created_at)
  SELECT DISTINCT ON (brand_id, email_key) brand_id, email_key, id, 'hard_bounce', email_bounced_at FROM customers
  WHERE email_bounced_at IS NOT NULL AND nullif(email_key, '') IS NOT NULL
  ORDER BY brand_id, email_key, email_bounced_at;