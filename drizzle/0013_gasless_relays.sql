CREATE TABLE "gasless_relays" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_order_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	"authorization_nonce" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"gas_limit" bigint NOT NULL,
	"tx_hash" text,
	"gas_used" bigint,
	"effective_gas_price" numeric(78, 0),
	"cost_wei" numeric(78, 0),
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gasless_relays" ADD CONSTRAINT "gasless_relays_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gasless_relays" ADD CONSTRAINT "gasless_relays_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gasless_relays_authorization_key" ON "gasless_relays" USING btree ("blockchain_id","token_address","from_address","authorization_nonce");--> statement-breakpoint
CREATE INDEX "gasless_relays_order_idx" ON "gasless_relays" USING btree ("payment_order_id");--> statement-breakpoint
CREATE INDEX "gasless_relays_merchant_idx" ON "gasless_relays" USING btree ("merchant_id","created_at");