ALTER TABLE "campaigns" ADD COLUMN "experiment_variants" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_test_percent" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_wait_hours" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_metric" text DEFAULT 'clicks' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "holdout_percent" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_phase" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_decide_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_winner" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_how" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_decision" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_decided_by" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "experiment_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "arm" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "variant" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "journeys" ADD COLUMN "held_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "holdout_percent" integer;--> statement-breakpoint
CREATE INDEX "campaigns_experiment_due_idx" ON "campaigns" USING btree ("experiment_decide_at") WHERE experiment_phase in ('testing', 'waiting');