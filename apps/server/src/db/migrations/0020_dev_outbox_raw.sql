ALTER TABLE "dev_outbox" DROP COLUMN "text";--> statement-breakpoint
ALTER TABLE "dev_outbox" DROP COLUMN "html";