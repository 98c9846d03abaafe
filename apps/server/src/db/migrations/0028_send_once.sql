-- Send once (issue 24): a delivery in flight names the worker lease and the claim that hold it and
-- when it was handed to SMTP; a sending campaign can be paused.
ALTER TABLE "campaigns" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_by" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "handed_at" timestamp with time zone;