-- Row-level security: the second wall behind the scoping every query does in code.
-- Requests run as yado_app (no BYPASSRLS) via SET LOCAL ROLE inside their transaction, with the
-- acting context in two transaction-local settings:
--   yado.scope_all = 'on'   the platform (granduser) context: every brand
--   yado.brand_id  = <uuid> a brand, hotel group or hotel context: that brand only
-- Finer scoping (a hotel within its brand) is done by the queries themselves.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'yado_app') THEN
    CREATE ROLE yado_app NOLOGIN NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
GRANT yado_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO yado_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION yado_scope_all() RETURNS boolean
  LANGUAGE sql STABLE AS $$ SELECT coalesce(current_setting('yado.scope_all', true), '') = 'on' $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION yado_brand_id() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('yado.brand_id', true), '')::uuid $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION yado_scope_all() TO yado_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION yado_brand_id() TO yado_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON hosts, role_assignments, users, audit_log TO yado_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE audit_log_id_seq TO yado_app;
--> statement-breakpoint
ALTER TABLE hosts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE hosts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON hosts USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
--> statement-breakpoint
ALTER TABLE role_assignments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE role_assignments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON role_assignments USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
--> statement-breakpoint
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON audit_log USING (yado_scope_all() OR brand_id = yado_brand_id())
  WITH CHECK (yado_scope_all() OR brand_id = yado_brand_id());
--> statement-breakpoint
-- Users are not owned by one brand: a brand context sees the users assigned to it or who
-- originate in it. New users are inserted (without RETURNING) before their first assignment.
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_read ON users FOR SELECT USING (
  yado_scope_all()
  OR EXISTS (SELECT 1 FROM role_assignments ra WHERE ra.user_id = users.id AND ra.brand_id = yado_brand_id())
  OR EXISTS (SELECT 1 FROM hosts h WHERE h.id = users.original_host_id AND h.brand_id = yado_brand_id())
);
--> statement-breakpoint
CREATE POLICY tenant_insert ON users FOR INSERT WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY tenant_update ON users FOR UPDATE USING (
  yado_scope_all()
  OR EXISTS (SELECT 1 FROM role_assignments ra WHERE ra.user_id = users.id AND ra.brand_id = yado_brand_id())
  OR EXISTS (SELECT 1 FROM hosts h WHERE h.id = users.original_host_id AND h.brand_id = yado_brand_id())
);
--> statement-breakpoint
CREATE POLICY tenant_delete ON users FOR DELETE USING (yado_scope_all());
