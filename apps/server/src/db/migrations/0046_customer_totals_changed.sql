-- The customer list's remembered totals (customers/totals-cache.ts) are forgotten when a tenant
-- transaction of this process commits. Any commit forgot them, and a scope-all one every brand's:
-- the worker's sweeps and ticks commit such transactions every few seconds whether they wrote or
-- not, so a common name's total was counted again every few seconds (issue 25's review of the
-- customer-list bench). Now a statement that changes what a total counts (a customer, where a
-- customer is allocated, a hotel's group) marks its transaction, and only a marked commit forgets.
-- The mark is a transaction-local setting: it ends with the transaction, and a rolled-back
-- savepoint takes it back with its changes.
CREATE OR REPLACE FUNCTION yado_mark_customers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('yado.customers_changed', 'on', true);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER customers_mark_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION yado_mark_customers_changed();--> statement-breakpoint
CREATE TRIGGER customer_allocations_mark_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON customer_allocations
  FOR EACH STATEMENT EXECUTE FUNCTION yado_mark_customers_changed();--> statement-breakpoint
CREATE TRIGGER hosts_mark_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hosts
  FOR EACH STATEMENT EXECUTE FUNCTION yado_mark_customers_changed();
