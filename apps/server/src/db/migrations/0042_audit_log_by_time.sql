-- The audit log is listed newest first by when each entry happened, the id breaking ties
-- (list-audit.ts): an entry can be recorded after one of a later moment (the demo history's past
-- unsubscribes and complaints, in the order their campaigns were seeded). The brand's view reads
-- audit_log_brand_at_idx; the whole log (the granduser's "all brands") reads this one.
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");
