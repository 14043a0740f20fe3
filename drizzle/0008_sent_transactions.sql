CREATE TABLE "sent_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"sender" text NOT NULL,
	"nonce" bigint NOT NULL,
	"hash" text NOT NULL,
	"purpose" text NOT NULL,
	"purpose_id" integer NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"raw" text NOT NULL,
	"status" text NOT NULL,
	"block_number" bigint,
	"reported_at" timestamp with time zone,
	"sent_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sent_transactions_hash_key" ON "sent_transactions" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "sent_transactions_sender_idx" ON "sent_transactions" USING btree ("chain_id","sender","status");