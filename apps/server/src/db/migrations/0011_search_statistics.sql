-- Finer statistics for the columns the customer list searches by prefix. With the default 100
-- histogram buckets, a phone prefix that matches 1,000 of a million customers was estimated at
-- about 10,000, and the planner walked the list's date order looking for matches (270 ms) instead
-- of reading them from the phone index and sorting them (1 ms). Names have few distinct values and
-- are served by their most-common-value lists; phones and emails are nearly unique.
ALTER TABLE "customers" ALTER COLUMN "phone" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "email_key" SET STATISTICS 1000;
