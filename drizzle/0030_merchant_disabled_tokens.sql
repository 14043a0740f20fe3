CREATE TABLE "merchant_disabled_tokens" (
	"merchant_id" integer NOT NULL,
	"blockchain_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "merchant_disabled_tokens_merchant_id_blockchain_id_symbol_pk" PRIMARY KEY("merchant_id","blockchain_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "merchant_disabled_tokens" ADD CONSTRAINT "merchant_disabled_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;