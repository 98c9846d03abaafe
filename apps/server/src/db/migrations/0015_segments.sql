CREATE TABLE "segment_members" (
	"segment_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segment_members_segment_id_customer_id_pk" PRIMARY KEY("segment_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "segment_uses" (
	"segment_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"object_id" uuid NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"blocks_delete" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segment_uses_segment_id_kind_object_id_pk" PRIMARY KEY("segment_id","kind","object_id")
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"filter" jsonb,
	"audience" integer,
	"audience_counted_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "segment_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "segment_added" integer;--> statement-breakpoint
ALTER TABLE "segment_members" ADD CONSTRAINT "segment_members_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_members" ADD CONSTRAINT "segment_members_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_uses" ADD CONSTRAINT "segment_uses_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segment_members_customer_idx" ON "segment_members" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "segment_uses_object_idx" ON "segment_uses" USING btree ("kind","object_id");--> statement-breakpoint
CREATE UNIQUE INDEX "segments_host_name_key" ON "segments" USING btree ("host_id",lower("name"));--> statement-breakpoint
CREATE INDEX "segments_brand_created_idx" ON "segments" USING btree ("brand_id","created_at");--> statement-breakpoint
-- Row-level security (as 0003/0008): a brand's segments, members and uses are invisible and
-- unwritable from any other brand's context. Within the brand, the owner host is checked in code.
GRANT SELECT, INSERT, UPDATE, DELETE ON segments TO yado_app;--> statement-breakpoint
ALTER TABLE segments ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE segments FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON segments USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON segment_members TO yado_app;--> statement-breakpoint
ALTER TABLE segment_members ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE segment_members FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON segment_members USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON segment_uses TO yado_app;--> statement-breakpoint
ALTER TABLE segment_uses ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE segment_uses FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON segment_uses USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
