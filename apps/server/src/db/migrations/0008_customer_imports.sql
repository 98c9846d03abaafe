-- UNLOGGED: rows between review and import need no crash safety (an import whose rows are gone
-- asks for the file again), and skipping the WAL makes the COPY of a large file much cheaper.
CREATE UNLOGGED TABLE "customer_import_rows" (
	"import_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"status" text NOT NULL,
	"duplicate_of" integer,
	"problems" text,
	"last_name" text,
	"first_name" text,
	"phone" text,
	"email" text,
	"id_number" text,
	"gender" text,
	"date_of_birth" text,
	"country" text,
	"prefecture" text,
	"city" text,
	"address" text,
	"email_status" text,
	CONSTRAINT "customer_import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "customer_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"host_id" uuid NOT NULL,
	"hotel_id" uuid,
	"created_by" uuid NOT NULL,
	"status" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"encoding" text NOT NULL,
	"columns" jsonb NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer,
	"counts" jsonb,
	"result" jsonb,
	"email_reception" text,
	"error_code" text,
	"error_row" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "customer_imports_host_idx" ON "customer_imports" USING btree ("host_id","created_at");--> statement-breakpoint
-- Imports are brand data: the same policy as customers.
GRANT SELECT, INSERT, UPDATE, DELETE ON customer_imports TO yado_app;
--> statement-breakpoint
ALTER TABLE customer_imports ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE customer_imports FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON customer_imports USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
-- The review job writes import rows with COPY, which PostgreSQL refuses on a table whose row-level
-- security applies to the writer. So security is enabled but not forced: the owner (the review job,
-- which names the import and brand in every statement) is exempt; requests, as yado_app, only read
-- and delete through the policy.
GRANT SELECT, DELETE ON customer_import_rows TO yado_app;
--> statement-breakpoint
ALTER TABLE customer_import_rows ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON customer_import_rows USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
