ALTER TABLE "campaign_email_settings" ADD COLUMN "pause_min_sent" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_email_settings" ADD COLUMN "pause_hard_bounce_pct" numeric(4, 2) DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_email_settings" ADD COLUMN "pause_complaint_pct" numeric(4, 2) DEFAULT 0.3 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_reason" jsonb;