CREATE TABLE "known_login_addresses" (
	"merchant_id" integer NOT NULL,
	"address" text NOT NULL,
	"last_login_at" timestamp with time zone NOT NULL,
	CONSTRAINT "known_login_addresses_merchant_id_address_pk" PRIMARY KEY("merchant_id","address")
);
--> statement-breakpoint
ALTER TABLE "known_login_addresses" ADD CONSTRAINT "known_login_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;