ALTER TABLE "payment_orders" ADD COLUMN "at_risk_reason" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "at_risk_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "block_hash" text;