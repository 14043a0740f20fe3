DROP INDEX "transactions_chain_tx_log_key";--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "sequence" integer;--> statement-breakpoint
UPDATE "order_events" SET "sequence" = numbered.n FROM (SELECT e."id", row_number() OVER (PARTITION BY e."payment_order_id" ORDER BY e."created_at", (SELECT min(d."id") FROM "webhook_deliveries" d WHERE d."event_id" = e."id") NULLS LAST, CASE e."type" WHEN 'payment.reorged' THEN 1 WHEN 'payment.pending' THEN 2 WHEN 'payment.expired' THEN 3 ELSE 4 END, e."id") AS n FROM "order_events" e) AS numbered WHERE numbered."id" = "order_events"."id";--> statement-breakpoint
ALTER TABLE "order_events" ALTER COLUMN "sequence" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "order_events_order_sequence_key" ON "order_events" USING btree ("payment_order_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_chain_tx_log_to_key" ON "transactions" USING btree ("blockchain_id","tx_hash","log_index","to_address");
