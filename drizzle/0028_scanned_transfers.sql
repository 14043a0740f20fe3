CREATE TABLE "scanned_transfers" (
	"blockchain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"to_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" timestamp with time zone NOT NULL,
	"from_address" text NOT NULL,
	"token_address" text,
	"amount" numeric(78, 0) NOT NULL,
	"gas_used" bigint NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"reverted" boolean NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scanned_transfers_blockchain_id_tx_hash_log_index_to_address_pk" PRIMARY KEY("blockchain_id","tx_hash","log_index","to_address")
);
--> statement-breakpoint
CREATE INDEX "scanned_transfers_chain_block_idx" ON "scanned_transfers" USING btree ("blockchain_id","block_number","log_index");