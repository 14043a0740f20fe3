CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_order_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"currency" text NOT NULL,
	"token_address" text,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"tx_hash" text,
	"log_index" integer,
	"block_number" bigint,
	"block_hash" text,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "refund_address" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "refund_address_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("payment_order_id","id");--> statement-breakpoint
CREATE INDEX "refunds_open_idx" ON "refunds" USING btree ("blockchain_id","to_address") WHERE status in ('requested', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transfer_key" ON "refunds" USING btree ("blockchain_id","tx_hash","log_index") WHERE tx_hash is not null;