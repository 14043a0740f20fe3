DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "payment_orders_chain_deadline_idx" ON "payment_orders" USING btree ("blockchain_id","expires_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "payment_orders_chain_in_flight_idx" ON "payment_orders" USING btree ("blockchain_id") WHERE status = 'processing' or (status = 'pending' and amount_received > 0);--> statement-breakpoint
CREATE INDEX "payment_orders_chain_open_native_idx" ON "payment_orders" USING btree ("blockchain_id","id") WHERE status in ('pending', 'processing') and token_address is null;--> statement-breakpoint
CREATE INDEX "sweeps_chain_block_idx" ON "sweeps" USING btree ("blockchain_id","block_number") WHERE status = 'succeeded';--> statement-breakpoint
CREATE INDEX "transactions_unconfirmed_idx" ON "transactions" USING btree ("blockchain_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "transactions_chain_block_idx" ON "transactions" USING btree ("blockchain_id","block_number");--> statement-breakpoint
CREATE INDEX "transactions_uncounted_idx" ON "transactions" USING btree ("payment_order_id") WHERE not counted and status in ('pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending';