CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"hotel_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"booking_date" date NOT NULL,
	"check_in" date NOT NULL,
	"check_out" date NOT NULL,
	"nights" integer NOT NULL,
	"guests" integer NOT NULL,
	"room_name" text,
	"room_type" text,
	"source" text,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_allocations" (
	"customer_id" uuid NOT NULL,
	"hotel_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"source" text NOT NULL,
	"booking_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"id_number" text,
	"gender" text,
	"date_of_birth" date,
	"country" text,
	"prefecture" text,
	"city" text,
	"address" text,
	"email_status" text DEFAULT 'active' NOT NULL,
	"email_status_changed_at" timestamp with time zone,
	"unsubscribe_reason" text,
	"consent_source" text DEFAULT 'manual' NOT NULL,
	"consent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"external_guest_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_hotel_id_hosts_id_fk" FOREIGN KEY ("hotel_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_allocations" ADD CONSTRAINT "customer_allocations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_allocations" ADD CONSTRAINT "customer_allocations_hotel_id_hosts_id_fk" FOREIGN KEY ("hotel_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_brand_external_key" ON "bookings" USING btree ("brand_id","external_id");--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("customer_id","check_in");--> statement-breakpoint
CREATE INDEX "bookings_hotel_check_in_idx" ON "bookings" USING btree ("hotel_id","check_in");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_allocations_key" ON "customer_allocations" USING btree ("customer_id","hotel_id");--> statement-breakpoint
CREATE INDEX "customer_allocations_hotel_idx" ON "customer_allocations" USING btree ("hotel_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_brand_phone_key" ON "customers" USING btree ("brand_id","phone");--> statement-breakpoint
CREATE INDEX "customers_brand_email_idx" ON "customers" USING btree ("brand_id",lower("email"));--> statement-breakpoint
CREATE INDEX "customers_brand_last_name_idx" ON "customers" USING btree ("brand_id","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "customers_brand_created_idx" ON "customers" USING btree ("brand_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_brand_external_key" ON "customers" USING btree ("brand_id","external_guest_id");