CREATE TABLE "campaign_segments" (
	"campaign_id" uuid NOT NULL,
	"segment_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"exclude" boolean DEFAULT false NOT NULL,
	CONSTRAINT "campaign_segments_campaign_id_segment_id_pk" PRIMARY KEY("campaign_id","segment_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"name" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"pre_header" text DEFAULT '' NOT NULL,
	"sender_email" text,
	"template_id" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"schedule_kind" text,
	"schedule_local_time" text,
	"schedule_time_zone" text,
	"send_at" timestamp with time zone,
	"audience" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"problem" text,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"hotel_id" uuid,
	"email" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"skip_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"in_flight_repeats" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "email_bounced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_segments" ADD CONSTRAINT "campaign_segments_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_brand_created_idx" ON "campaigns" USING btree ("brand_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_host_idx" ON "campaigns" USING btree ("host_id");--> statement-breakpoint
CREATE INDEX "campaigns_due_idx" ON "campaigns" USING btree ("send_at") WHERE status in ('scheduled', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_campaign_customer_key" ON "deliveries" USING btree ("campaign_id","customer_id");--> statement-breakpoint
CREATE INDEX "deliveries_campaign_status_idx" ON "deliveries" USING btree ("campaign_id","status");--> statement-breakpoint
CREATE INDEX "deliveries_customer_sent_idx" ON "deliveries" USING btree ("customer_id","sent_at") WHERE status = 'sent';--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaigns TO yado_app;--> statement-breakpoint
ALTER TABLE campaigns ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaigns FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaigns USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_segments TO yado_app;--> statement-breakpoint
ALTER TABLE campaign_segments ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE campaign_segments FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON campaign_segments USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON deliveries TO yado_app;--> statement-breakpoint
ALTER TABLE deliveries ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE deliveries FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON deliveries USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
