CREATE TABLE "subscription_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"period" integer NOT NULL,
	"status" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"price_amount" text,
	"price_currency" text,
	"rate" text,
	"rate_source" jsonb,
	"rated_at" timestamp with time zone,
	"tx_hash" text,
	"block_number" bigint,
	"block_hash" text,
	"gas_used" bigint,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"confirmation_threshold" integer NOT NULL,
	"confirmed_at" timestamp with time zone,
	"reorged_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_period_key" ON "subscription_charges" USING btree ("subscription_id","period") WHERE status in ('sending', 'pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "subscription_charges_subscription_idx" ON "subscription_charges" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "subscription_charges_open_idx" ON "subscription_charges" USING btree ("blockchain_id","block_number") WHERE status in ('pending', 'confirmed');