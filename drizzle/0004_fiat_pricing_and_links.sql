CREATE TABLE "payment_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"title" text NOT NULL,
	"amount" text,
	"price_amount" text,
	"price_currency" text,
	"options" jsonb NOT NULL,
	"max_quantity" integer DEFAULT 1 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "payment_tolerance_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "price_amount" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "rate" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "rate_source" jsonb;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "payment_tolerance_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_link_id_key" ON "payment_links" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "payment_links_merchant_idx" ON "payment_links" USING btree ("merchant_id","created_at");