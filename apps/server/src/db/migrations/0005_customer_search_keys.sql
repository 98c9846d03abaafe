DROP INDEX "customers_brand_email_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "last_name_key" text GENERATED ALWAYS AS (lower(last_name)) STORED;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "first_name_key" text GENERATED ALWAYS AS (lower(first_name)) STORED;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "full_name_key" text GENERATED ALWAYS AS (lower(last_name || first_name)) STORED;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower(email)) STORED;--> statement-breakpoint
CREATE INDEX "customers_phone_prefix_idx" ON "customers" USING btree ("brand_id","phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_last_name_key_idx" ON "customers" USING btree ("brand_id","last_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_first_name_key_idx" ON "customers" USING btree ("brand_id","first_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_full_name_key_idx" ON "customers" USING btree ("brand_id","full_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_email_key_idx" ON "customers" USING btree ("brand_id","email_key" text_pattern_ops);