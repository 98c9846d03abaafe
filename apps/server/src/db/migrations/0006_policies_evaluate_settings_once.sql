-- The same policies, with the settings read once per statement instead of once per row.
-- yado_scope_all() and yado_brand_id() are inlined SQL functions, so a policy calling them
-- directly evaluates current_setting() for every row it filters; wrapped in a scalar subquery
-- each becomes an InitPlan computed once (a count over 10,000 customers: 7.6 ms -> 2.4 ms).
-- New policies should use the (SELECT yado_...()) form too.
DROP POLICY tenant ON hosts;
--> statement-breakpoint
CREATE POLICY tenant ON hosts USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant ON role_assignments;
--> statement-breakpoint
CREATE POLICY tenant ON role_assignments USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant ON audit_log;
--> statement-breakpoint
CREATE POLICY tenant ON audit_log USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant ON customers;
--> statement-breakpoint
CREATE POLICY tenant ON customers USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant ON customer_allocations;
--> statement-breakpoint
CREATE POLICY tenant ON customer_allocations USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant ON bookings;
--> statement-breakpoint
CREATE POLICY tenant ON bookings USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
DROP POLICY tenant_read ON users;
--> statement-breakpoint
CREATE POLICY tenant_read ON users FOR SELECT USING (
  (SELECT yado_scope_all())
  OR EXISTS (SELECT 1 FROM role_assignments ra WHERE ra.user_id = users.id AND ra.brand_id = (SELECT yado_brand_id()))
  OR EXISTS (SELECT 1 FROM hosts h WHERE h.id = users.original_host_id AND h.brand_id = (SELECT yado_brand_id()))
);
--> statement-breakpoint
DROP POLICY tenant_update ON users;
--> statement-breakpoint
CREATE POLICY tenant_update ON users FOR UPDATE USING (
  (SELECT yado_scope_all())
  OR EXISTS (SELECT 1 FROM role_assignments ra WHERE ra.user_id = users.id AND ra.brand_id = (SELECT yado_brand_id()))
  OR EXISTS (SELECT 1 FROM hosts h WHERE h.id = users.original_host_id AND h.brand_id = (SELECT yado_brand_id()))
);
--> statement-breakpoint
DROP POLICY tenant_delete ON users;
--> statement-breakpoint
CREATE POLICY tenant_delete ON users FOR DELETE USING ((SELECT yado_scope_all()));
