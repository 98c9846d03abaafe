-- A failed import row keeps its cells exactly as the file had them (a JSON array of strings), so
-- the failures download gives the user back what they wrote, not the values as normalised
-- (男性 rather than male). Null for the rows that are applied or repeated.
ALTER TABLE "customer_import_rows" ADD COLUMN "source" text;
