CREATE TABLE "webauthn_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"challenge_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "credential_id" text;--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "sign_count" bigint;--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "transports" text;--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "second_factors" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webauthn_challenges_hash_key" ON "webauthn_challenges" USING btree ("challenge_hash");--> statement-breakpoint
CREATE INDEX "webauthn_challenges_merchant_idx" ON "webauthn_challenges" USING btree ("merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "second_factors_credential_id_key" ON "second_factors" USING btree ("credential_id");