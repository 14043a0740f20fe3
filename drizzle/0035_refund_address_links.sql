CREATE TABLE "refund_address_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_order_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "refund_address_source" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "refund_address_given_by" text;--> statement-breakpoint
ALTER TABLE "receipt_contacts" ADD COLUMN "refund_contact_email" text;--> statement-breakpoint
ALTER TABLE "refund_address_links" ADD CONSTRAINT "refund_address_links_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_address_links" ADD CONSTRAINT "refund_address_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_address_links_hash_key" ON "refund_address_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refund_address_links_order_idx" ON "refund_address_links" USING btree ("payment_order_id");