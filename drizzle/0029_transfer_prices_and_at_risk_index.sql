ALTER TABLE "transactions" ADD COLUMN "usd_rate" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "native_usd_rate" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "usd_rate_source" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "priced_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_at_risk_idx" ON "payment_orders" USING btree ("merchant_id","created_at","id") WHERE at_risk_reason is not null;--> statement-breakpoint
CREATE INDEX "transactions_unpriced_idx" ON "transactions" USING btree ("blockchain_id","id") WHERE priced_at is null;--> statement-breakpoint
-- Transfers detected before prices were recorded keep no price (today's would not be the price when they arrived).
UPDATE "transactions" SET "priced_at" = "created_at";