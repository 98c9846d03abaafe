CREATE TABLE "campaign_conversions" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_host_stats" (
	"campaign_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"unique_opens" integer DEFAULT 0 NOT NULL,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	"unsubscribes" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_host_stats_campaign_id_host_id_pk" PRIMARY KEY("campaign_id","host_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_link_stats" (
	"campaign_id" uuid NOT NULL,
	"link_index" integer NOT NULL,
	"brand_id" uuid NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_link_stats_campaign_id_link_index_pk" PRIMARY KEY("campaign_id","link_index")
);
--> statement-breakpoint
CREATE TABLE "campaign_stats" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"unique_opens" integer DEFAULT 0 NOT NULL,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	"unsubscribes" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_stats_hourly" (
	"campaign_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"brand_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"unique_opens" integer DEFAULT 0 NOT NULL,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	"unsubscribes" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_stats_hourly_campaign_id_hour_pk" PRIMARY KEY("campaign_id","hour")
);
--> statement-breakpoint
CREATE TABLE "delivery_engagement" (
	"delivery_id" uuid PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"last_clicked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "delivery_link_clicks" (
	"delivery_id" uuid NOT NULL,
	"link_index" integer NOT NULL,
	"brand_id" uuid NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "delivery_link_clicks_delivery_id_link_index_pk" PRIMARY KEY("delivery_id","link_index")
);
--> statement-breakpoint
CREATE TABLE "host_daily_stats" (
	"host_id" uuid NOT NULL,
	"day" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"unique_opens" integer DEFAULT 0 NOT NULL,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	"unsubscribes" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "host_daily_stats_host_id_day_pk" PRIMARY KEY("host_id","day")
);
--> statement-breakpoint
CREATE TABLE "tracking_events" (
	"id" bigserial NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"brand_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"link_index" integer,
	"url" text,
	"amount" integer,
	"booking_id" uuid,
	"source" text,
	CONSTRAINT "tracking_events_occurred_at_id_pk" PRIMARY KEY("occurred_at","id")
);
--> statement-breakpoint
CREATE TABLE "tracking_settings" (
	"brand_id" uuid PRIMARY KEY NOT NULL,
	"conversion_window_days" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_settings" ADD CONSTRAINT "tracking_settings_brand_id_hosts_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_conversions_campaign_idx" ON "campaign_conversions" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "delivery_engagement_customer_click_idx" ON "delivery_engagement" USING btree ("brand_id","customer_id","last_clicked_at");--> statement-breakpoint
CREATE INDEX "host_daily_stats_brand_day_idx" ON "host_daily_stats" USING btree ("brand_id","day");--> statement-breakpoint
CREATE INDEX "tracking_events_delivery_idx" ON "tracking_events" USING btree ("delivery_id","occurred_at");--> statement-breakpoint
CREATE INDEX "tracking_events_brand_at_idx" ON "tracking_events" USING btree ("brand_id","occurred_at");--> statement-breakpoint
-- Row-level security (as 0003/0008/0015): a brand's events, engagement, conversions, rollups and
-- settings are invisible and unwritable from any other brand's context. The public tracking
-- routes and the event writer act in the platform's context (scope_all) as yado_app.
GRANT SELECT, INSERT ON tracking_events TO yado_app;--> statement-breakpoint
GRANT USAGE ON SEQUENCE tracking_events_id_seq TO yado_app;--> statement-breakpoint
ALTER TABLE tracking_events ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE tracking_events FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON tracking_events USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON delivery_engagement TO yado_app;--> statement-breakpoint
ALTER TABLE delivery_engagement ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE delivery_engagement FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON delivery_engagement USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON delivery_link_clicks TO yado_app;--> statement-breakpoint
ALTER TABLE delivery_link_clicks ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE delivery_link_clicks FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON delivery_link_clicks USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_conversions TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_conversions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_conversions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_conversions USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_stats TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_stats ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_stats FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_stats USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_stats_hourly TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_stats_hourly ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_stats_hourly FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_stats_hourly USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_host_stats TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_host_stats ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_host_stats FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_host_stats USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_link_stats TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_link_stats ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_link_stats FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_link_stats USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON host_daily_stats TO yado_app;--> statement-breakpoint
ALTER TABLE host_daily_stats ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE host_daily_stats FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON host_daily_stats USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON tracking_settings TO yado_app;--> statement-breakpoint
ALTER TABLE tracking_settings ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE tracking_settings FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON tracking_settings USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
