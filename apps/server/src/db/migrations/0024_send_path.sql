-- The send path: each recipient domain's next free sending slot, shared by every worker process
-- (not tenant data: no brand, no row-level security, no grant to yado_app; workers use it as the
-- owner), and the embedded sink's outbox keeps the raw message only (bodies decoded when read).
CREATE TABLE "domain_send_slots" (
	"domain" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dev_outbox" DROP COLUMN "text";--> statement-breakpoint
ALTER TABLE "dev_outbox" DROP COLUMN "html";