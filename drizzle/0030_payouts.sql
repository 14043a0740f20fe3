CREATE TABLE "payout_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"currency" text NOT NULL,
	"token_address" text,
	"decimals" integer NOT NULL,
	"amount_currency" text,
	"rate" text,
	"usd_value" text,
	"rate_source" jsonb,
	"rate_locked_at" timestamp with time zone,
	"total_amount" numeric(78, 0) NOT NULL,
	"leg_count" integer NOT NULL,
	"note" text,
	"status" text NOT NULL,
	"approval_required" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_by_user_id" integer,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"tx_hash" text,
	"from_address" text,
	"block_number" bigint,
	"block_hash" text,
	"sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"currency" text NOT NULL,
	"decimals" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"reference" text,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"claim_address" text,
	"claimed_at" timestamp with time zone,
	"batch_id" integer,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_legs" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"position" integer NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fiat_amount" text,
	"reference" text,
	"claim_id" text,
	"status" text NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_settings" (
	"merchant_id" integer PRIMARY KEY NOT NULL,
	"approval_threshold_usd" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_claims" ADD CONSTRAINT "payout_claims_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_claims" ADD CONSTRAINT "payout_claims_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD CONSTRAINT "payout_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batches_merchant_idx" ON "payout_batches" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "payout_batches_sent_idx" ON "payout_batches" USING btree ("blockchain_id") WHERE status = 'sent';--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_tx_key" ON "payout_batches" USING btree ("blockchain_id","tx_hash") WHERE tx_hash is not null;--> statement-breakpoint
CREATE INDEX "payout_claims_merchant_idx" ON "payout_claims" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_claims_due_idx" ON "payout_claims" USING btree ("merchant_id","blockchain_id","currency") WHERE status = 'claimed' and batch_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_legs_batch_position_key" ON "payout_legs" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "payout_legs_merchant_idx" ON "payout_legs" USING btree ("merchant_id","id");