-- The dashboard search's trigram index (issue 31); PGlite loads the extension from @electric-sql/pglite/contrib/pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payment_orders_search_trgm_idx" ON "payment_orders" USING gin ("order_id" gin_trgm_ops,"receiving_address" gin_trgm_ops,"order_info" gin_trgm_ops,"item_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "transactions_merchant_block_time_idx" ON "transactions" USING btree ("merchant_id","block_timestamp","id");