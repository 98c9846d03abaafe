-- Customers, their allocations and bookings are brand data: the same policy as hosts.
GRANT SELECT, INSERT, UPDATE, DELETE ON customers, customer_allocations, bookings TO yado_app;
--> statement-breakpoint
ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE customers FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON customers USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
--> statement-breakpoint
ALTER TABLE customer_allocations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE customer_allocations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON customer_allocations USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
--> statement-breakpoint
ALTER TABLE bookings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE bookings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON bookings USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
