-- Each index costs every inserted customer a descent; a million-row import spends most of its time
-- in them. The phone's unique index now uses text_pattern_ops, which keeps `=` (lookups and
-- ON CONFLICT (brand_id, phone)) and adds the leakproof ~>=~/~<~ prefix range, so the separate
-- prefix index goes. The booking-system key indexes only customers that have one (NULLs never
-- conflicted anyway).
DROP INDEX "customers_phone_prefix_idx";--> statement-breakpoint
DROP INDEX "customers_brand_phone_key";--> statement-breakpoint
DROP INDEX "customers_brand_external_key";--> statement-breakpoint
CREATE UNIQUE INDEX "customers_brand_phone_key" ON "customers" USING btree ("brand_id","phone" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "customers_brand_external_key" ON "customers" USING btree ("brand_id","external_guest_id") WHERE external_guest_id is not null;