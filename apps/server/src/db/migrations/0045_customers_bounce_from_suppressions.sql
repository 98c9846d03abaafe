-- Issue 25: the customer's "Email bounced on" is read from the address's active hard-bounce
-- suppression (customers/queries.ts), which is what stops its mail, instead of a mark of its own on
-- the guest: setting the mark wrote the customer's row again, and often all eleven of its indexes,
-- for every hard bounce. The mark decided nothing since migration 0030 (the send paths read the
-- suppression list, which took every mark over then and every hard bounce since), so it goes
-- without a copy: a mark left beside no active entry (an address changed since it bounced) named
-- an address the guest no longer has.
ALTER TABLE "customers" DROP COLUMN "email_bounced_at";
