-- The policies' setting readers are declared PARALLEL SAFE. Undeclared, a function counts as
-- parallel unsafe, and PostgreSQL decides that before inlining it: every statement under row-level
-- security was therefore planned serial, while the same statement as the owner ran in parallel (a
-- segment count over a million customers: 1.2-1.5 s serial, 0.9-1.0 s with two workers on a loaded
-- two-core machine). They only read settings, which parallel workers receive from the leader, so
-- a worker filters by the same brand (checked: another brand's setting counts 0 in parallel too).
ALTER FUNCTION yado_scope_all() PARALLEL SAFE;
--> statement-breakpoint
ALTER FUNCTION yado_brand_id() PARALLEL SAFE;
