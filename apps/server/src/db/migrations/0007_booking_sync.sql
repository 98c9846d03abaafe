CREATE TABLE "booking_connections" (
	"brand_id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"account_name" text NOT NULL,
	"api_key_encrypted" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"hotels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"watermark" timestamp (3) with time zone,
	"last_daily_on" date,
	"sync_requested_at" timestamp with time zone,
	"connected_by" uuid,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_guest_links" (
	"brand_id" uuid NOT NULL,
	"external_guest_id" text NOT NULL,
	"customer_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"as_of" timestamp (3) with time zone,
	"guests_read" integer DEFAULT 0 NOT NULL,
	"reservations_read" integer DEFAULT 0 NOT NULL,
	"customers_created" integer DEFAULT 0 NOT NULL,
	"customers_updated" integer DEFAULT 0 NOT NULL,
	"bookings_created" integer DEFAULT 0 NOT NULL,
	"bookings_updated" integer DEFAULT 0 NOT NULL,
	"bookings_cancelled" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "booking_hotel_code" text;--> statement-breakpoint
ALTER TABLE "booking_connections" ADD CONSTRAINT "booking_connections_brand_id_hosts_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_guest_links" ADD CONSTRAINT "booking_guest_links_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_connections_account_key" ON "booking_connections" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_guest_links_key" ON "booking_guest_links" USING btree ("brand_id","external_guest_id");--> statement-breakpoint
CREATE INDEX "booking_guest_links_customer_idx" ON "booking_guest_links" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "booking_sync_runs_brand_started_idx" ON "booking_sync_runs" USING btree ("brand_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hosts_booking_hotel_code_key" ON "hosts" USING btree ("brand_id","booking_hotel_code");--> statement-breakpoint
-- Row-level security for the booking sync's tables: brand data, the same policy as customers.
GRANT SELECT, INSERT, UPDATE, DELETE ON booking_connections, booking_guest_links, booking_sync_runs TO yado_app;
--> statement-breakpoint
ALTER TABLE booking_connections ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE booking_connections FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON booking_connections USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
ALTER TABLE booking_guest_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE booking_guest_links FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON booking_guest_links USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
ALTER TABLE booking_sync_runs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE booking_sync_runs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON booking_sync_runs USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
