CREATE TABLE "journey_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"scenario_id" uuid NOT NULL,
	"journey_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"event" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"scenario_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"booking_id" uuid,
	"entry_key" text NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"node_id" text,
	"phase" text DEFAULT 'arrive' NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"due_at" timestamp with time zone,
	"delivery_id" uuid,
	"entered_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scenario_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"now" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scenario_presets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"emoji" text NOT NULL,
	"colour" text NOT NULL,
	"graph" jsonb NOT NULL,
	"run" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scenario_segment_seen" (
	"scenario_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	CONSTRAINT "scenario_segment_seen_scenario_id_customer_id_pk" PRIMARY KEY("scenario_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "scenarios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"graph" jsonb NOT NULL,
	"run" jsonb NOT NULL,
	"preset_id" text,
	"run_number" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"next_entry_at" timestamp with time zone,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"bookings_seen_at" timestamp with time zone,
	"birthdays_on" date,
	"segment_scanned_at" timestamp with time zone,
	"archived_from" text,
	"node_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scenario_id" uuid;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scenario_node_id" text;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scenario_round" integer;
--> statement-breakpoint
ALTER TABLE "journey_steps" ADD CONSTRAINT "journey_steps_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "public"."journeys"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "journeys" ADD CONSTRAINT "journeys_scenario_id_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."scenarios"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "journeys" ADD CONSTRAINT "journeys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scenario_presets" ADD CONSTRAINT "scenario_presets_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scenario_segment_seen" ADD CONSTRAINT "scenario_segment_seen_scenario_id_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."scenarios"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "journey_steps_journey_idx" ON "journey_steps" USING btree ("journey_id","id");
--> statement-breakpoint
CREATE INDEX "journey_steps_scenario_node_idx" ON "journey_steps" USING btree ("scenario_id","node_id","event");
--> statement-breakpoint
CREATE UNIQUE INDEX "journeys_entry_key" ON "journeys" USING btree ("scenario_id","customer_id","entry_key");
--> statement-breakpoint
CREATE INDEX "journeys_due_idx" ON "journeys" USING btree ("due_at") WHERE state = 'waiting';
--> statement-breakpoint
CREATE INDEX "journeys_scenario_node_idx" ON "journeys" USING btree ("scenario_id","node_id","state");
--> statement-breakpoint
CREATE INDEX "journeys_booking_idx" ON "journeys" USING btree ("booking_id") WHERE booking_id is not null;
--> statement-breakpoint
CREATE INDEX "journeys_email_wait_idx" ON "journeys" USING btree ("delivery_id") WHERE state = 'waiting' and due_at is null;
--> statement-breakpoint
CREATE INDEX "scenario_presets_host_idx" ON "scenario_presets" USING btree ("host_id");
--> statement-breakpoint
CREATE INDEX "scenarios_brand_updated_idx" ON "scenarios" USING btree ("brand_id","updated_at");
--> statement-breakpoint
CREATE INDEX "scenarios_host_idx" ON "scenarios" USING btree ("host_id");
--> statement-breakpoint
CREATE INDEX "scenarios_active_idx" ON "scenarios" USING btree ("status") WHERE status in ('scheduled', 'running');
--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_scenario_node_key" ON "campaigns" USING btree ("scenario_id","scenario_node_id","scenario_round") WHERE scenario_id is not null;
--> statement-breakpoint
-- Row-level security for the tenant tables (as 0016): enabled and forced, policies read the acting context.
GRANT SELECT, INSERT, UPDATE, DELETE ON scenarios TO yado_app;--> statement-breakpoint
ALTER TABLE scenarios ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE scenarios FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON scenarios USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON scenario_presets TO yado_app;--> statement-breakpoint
ALTER TABLE scenario_presets ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE scenario_presets FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON scenario_presets USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON journeys TO yado_app;--> statement-breakpoint
ALTER TABLE journeys ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE journeys FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON journeys USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON journey_steps TO yado_app;--> statement-breakpoint
ALTER TABLE journey_steps ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE journey_steps FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON journey_steps USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON scenario_segment_seen TO yado_app;--> statement-breakpoint
ALTER TABLE scenario_segment_seen ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE scenario_segment_seen FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON scenario_segment_seen USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT USAGE ON SEQUENCE journey_steps_id_seq TO yado_app;
