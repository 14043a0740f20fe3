ALTER TABLE "payment_orders" ADD COLUMN "item_name" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "item_quantity" integer;