ALTER TABLE "merchants" ADD COLUMN "payment_tolerance_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "price_amount" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "rate" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "rate_source" jsonb;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "payment_tolerance_bps" integer DEFAULT 0 NOT NULL;