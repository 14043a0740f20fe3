CREATE TABLE "order_method_addresses" (
	"payment_order_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"receiving_address" text NOT NULL,
	CONSTRAINT "order_method_addresses_payment_order_id_blockchain_id_pk" PRIMARY KEY("payment_order_id","blockchain_id")
);
--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "accepted_methods" jsonb;--> statement-breakpoint
ALTER TABLE "order_method_addresses" ADD CONSTRAINT "order_method_addresses_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_method_addresses_chain_address_idx" ON "order_method_addresses" USING btree ("blockchain_id","receiving_address");