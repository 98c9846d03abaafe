-- Job leases (apps/server/src/jobs/leases.ts). worker_leases and job_claims are not tenant data:
-- only worker processes touch them, as the database owner (like pg-boss's own tables), so they
-- carry no brand, no row-level security and no grant to yado_app.
CREATE TABLE "job_claims" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"worker_id" uuid,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lapses" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking_sync_runs" ADD COLUMN "resumed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "resumed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "job_claims_worker_idx" ON "job_claims" USING btree ("worker_id");