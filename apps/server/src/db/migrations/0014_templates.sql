CREATE TABLE "template_uses" (
	"template_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"brand_id" uuid,
	"campaign_name" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_uses_template_id_campaign_id_pk" PRIMARY KEY("template_id","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid,
	"host_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover_image_url" text,
	"default_language" text DEFAULT 'ja' NOT NULL,
	"contents" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_uses" ADD CONSTRAINT "template_uses_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_host_idx" ON "templates" USING btree ("host_id","updated_at");--> statement-breakpoint
CREATE INDEX "templates_brand_idx" ON "templates" USING btree ("brand_id");--> statement-breakpoint
-- Templates are brand data: row-level security keeps each brand's to itself (the platform's own,
-- with no brand, are seen only with scope_all). Which host of the brand may read or change a
-- template (the owner edits; a brand's are read-only below it) is narrowed by the queries.
GRANT SELECT, INSERT, UPDATE, DELETE ON templates, template_uses TO yado_app;
--> statement-breakpoint
ALTER TABLE templates ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE templates FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON templates USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
--> statement-breakpoint
ALTER TABLE template_uses ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE template_uses FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant ON template_uses USING ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()))
  WITH CHECK ((SELECT yado_scope_all()) OR brand_id = (SELECT yado_brand_id()));
