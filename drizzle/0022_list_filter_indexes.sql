-- Issue 31: the transactions list's chain filter (alone and with a status) and the orders list's currency filter read
-- their page and bounded count from one index range; the currency index carries the plain column for index-only counts.
DROP INDEX "payment_orders_merchant_currency_idx";--> statement-breakpoint
CREATE INDEX "transactions_merchant_chain_idx" ON "transactions" USING btree ("merchant_id","blockchain_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_chain_status_idx" ON "transactions" USING btree ("merchant_id","blockchain_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_currency_idx" ON "payment_orders" USING btree ("merchant_id",lower("currency"),"created_at","id","currency");