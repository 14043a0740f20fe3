CREATE TABLE "account_events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"actor" text NOT NULL,
	"client_ip" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "known_login_addresses" (
	"merchant_id" integer NOT NULL,
	"address" text NOT NULL,
	"last_login_at" timestamp with time zone NOT NULL,
	CONSTRAINT "known_login_addresses_merchant_id_address_pk" PRIMARY KEY("merchant_id","address")
);
--> statement-breakpoint
ALTER TABLE "account_events" ADD CONSTRAINT "account_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_login_addresses" ADD CONSTRAINT "known_login_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_events_merchant_idx" ON "account_events" USING btree ("merchant_id","created_at");