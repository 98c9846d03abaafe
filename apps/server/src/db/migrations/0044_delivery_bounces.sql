-- Issue 25: the deliveries that bounced after the relay accepted them, one narrow row each (schema.ts,
-- deliveryBounces), instead of `deliveries.bounced_at`: marking the wide delivery wrote its row
-- again and an entry in each of its six indexes for every such bounce. The marks made so far move
-- over as they are (read under scope-all: deliveries is a tenant table).
CREATE TABLE "delivery_bounces" (
	"delivery_id" uuid PRIMARY KEY NOT NULL,
	"brand_id" uuid NOT NULL,
	"bounced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
SELECT set_config('yado.scope_all', 'on', true);--> statement-breakpoint
INSERT INTO delivery_bounces (delivery_id, brand_id, bounced_at)
  SELECT id, brand_id, bounced_at FROM deliveries WHERE bounced_at IS NOT NULL;--> statement-breakpoint
SELECT set_config('yado.scope_all', '', true);--> statement-breakpoint
ALTER TABLE "deliveries" DROP COLUMN "bounced_at";--> statement-breakpoint
GRANT SELECT, INSERT ON delivery_bounces TO yado_app;--> statement-breakpoint
ALTER TABLE delivery_bounces ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE delivery_bounces FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant ON delivery_bounces USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
