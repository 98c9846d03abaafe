CREATE TABLE "customer_count_days" (
	"host_id" uuid NOT NULL,
	"day" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"customers" integer NOT NULL,
	"active" integer NOT NULL,
	"unsubscribed" integer NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_count_days_host_id_day_pk" PRIMARY KEY("host_id","day")
);
--> statement-breakpoint
ALTER TABLE "customer_count_days" ADD CONSTRAINT "customer_count_days_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON customer_count_days TO yado_app;--> statement-breakpoint
ALTER TABLE customer_count_days ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE customer_count_days FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON customer_count_days USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
