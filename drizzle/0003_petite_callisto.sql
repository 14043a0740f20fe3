CREATE TABLE "idempotency_keys" (
	"merchant_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"lock_token" text NOT NULL,
	"request_id" text NOT NULL,
	"status" integer,
	"response_body" text,
	"response_headers" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_merchant_id_key_pk" PRIMARY KEY("merchant_id","key")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");