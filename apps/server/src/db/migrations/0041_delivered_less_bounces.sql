-- Issue 25: a campaign's "delivered" is what the relay accepted less what bounced afterwards (a
-- DSN, a relay's webhook), as marketers read it. The moment a delivery's first later bounce took it
-- out of `delivered`, so that a second report (the other kind, or two channels at once) does not
-- take it out again. Nullable without a default: adding it rewrites nothing.
ALTER TABLE "deliveries" ADD COLUMN "bounced_at" timestamp with time zone;
