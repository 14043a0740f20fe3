DROP INDEX "order_events_merchant_idx";--> statement-breakpoint
DROP INDEX "payment_orders_merchant_created_idx";--> statement-breakpoint
DROP INDEX "transactions_merchant_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_idx";--> statement-breakpoint
CREATE INDEX "order_events_merchant_type_idx" ON "order_events" USING btree ("merchant_id","type","created_at","sequence","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_status_idx" ON "payment_orders" USING btree ("merchant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_chain_idx" ON "payment_orders" USING btree ("merchant_id","blockchain_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_currency_idx" ON "payment_orders" USING btree ("merchant_id",lower("currency"),"created_at","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_amount_idx" ON "payment_orders" USING btree ("merchant_id",("amount" * power(10::numeric, 36 - "decimals")),"id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "transactions_merchant_status_idx" ON "transactions" USING btree ("merchant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_status_idx" ON "webhook_deliveries" USING btree ("endpoint_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_completed_idx" ON "webhook_deliveries" USING btree ("completed_at") WHERE status = 'succeeded';--> statement-breakpoint
CREATE INDEX "order_events_merchant_idx" ON "order_events" USING btree ("merchant_id","created_at","sequence","id");--> statement-breakpoint
CREATE INDEX "payment_orders_merchant_created_idx" ON "payment_orders" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_idx" ON "transactions" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");