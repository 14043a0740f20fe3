CREATE TABLE "sanctioned_addresses" (
	"address" text NOT NULL,
	"listed_party_id" text NOT NULL,
	"listed_party_name" text NOT NULL,
	"currency" text NOT NULL,
	"programs" text NOT NULL,
	CONSTRAINT "sanctioned_addresses_address_listed_party_id_currency_pk" PRIMARY KEY("address","listed_party_id","currency")
);
--> statement-breakpoint
CREATE TABLE "sanctions_list_loads" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"published_on" text NOT NULL,
	"entries" integer NOT NULL,
	"addresses" integer NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"payment_order_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"address" text NOT NULL,
	"matched_by" text NOT NULL,
	"reason" text NOT NULL,
	"action" text NOT NULL,
	"status" text NOT NULL,
	"released_by" text,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_policies" (
	"merchant_id" integer PRIMARY KEY NOT NULL,
	"on_match" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_disabled_tokens" (
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "merchant_disabled_tokens_merchant_id_blockchain_id_symbol_pk" PRIMARY KEY("merchant_id","blockchain_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "screening_flags" ADD CONSTRAINT "screening_flags_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_flags" ADD CONSTRAINT "screening_flags_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_policies" ADD CONSTRAINT "screening_policies_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_disabled_tokens" ADD CONSTRAINT "merchant_disabled_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "screening_flags_order_idx" ON "screening_flags" USING btree ("payment_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "screening_flags_transfer_key" ON "screening_flags" USING btree ("blockchain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "screening_flags_held_idx" ON "screening_flags" USING btree ("merchant_id","id") WHERE status = 'held';