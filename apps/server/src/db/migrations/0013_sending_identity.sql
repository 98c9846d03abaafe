CREATE TABLE "campaign_email_settings" (
	"host_id" uuid PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"sender_email" text,
	"sender_name" text,
	"reply_to" text,
	"unsubscribed_message" text,
	"footer_sender_name" text,
	"footer_postal_address" text,
	"default_language" text,
	"frequency_cap_count" integer,
	"frequency_cap_days" integer,
	"quiet_hours_start" text,
	"quiet_hours_end" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_dns_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sending_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"dkim_selector" text NOT NULL,
	"dkim_public_key" text NOT NULL,
	"dkim_private_key_encrypted" text NOT NULL,
	"ownership_token" text NOT NULL,
	"state" text DEFAULT 'unverified' NOT NULL,
	"checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verify_available_at" timestamp with time zone NOT NULL,
	"last_checked_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"lapsed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dev_outbox" ADD COLUMN "raw" "bytea";--> statement-breakpoint
ALTER TABLE "dev_outbox" ADD COLUMN "headers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_email_settings" ADD CONSTRAINT "campaign_email_settings_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD CONSTRAINT "sending_domains_brand_id_hosts_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dev_dns_records_name_idx" ON "dev_dns_records" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "sending_domains_domain_key" ON "sending_domains" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "sending_domains_brand_idx" ON "sending_domains" USING btree ("brand_id");--> statement-breakpoint
-- Row-level security for the sending identity: brand data, the same policy as customers. The
-- embedded DNS zone (dev_dns_records) is not granted to yado_app at all, like the outbox.
GRANT SELECT, INSERT, UPDATE, DELETE ON sending_domains, campaign_email_settings TO yado_app;
--> statement-breakpoint
ALTER TABLE sending_domains ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE sending_domains FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON sending_domains USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
ALTER TABLE campaign_email_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE campaign_email_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON campaign_email_settings USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
