-- Issue 31: the dashboard search matches text shaped like an order id (ORD-…) as a prefix of lower(order_id), a range of this
-- merchant-scoped index (text_pattern_ops), instead of a trigram bitmap of "ord", "rd-", … which every order id has.
CREATE INDEX "payment_orders_merchant_order_id_idx" ON "payment_orders" USING btree ("merchant_id",lower("order_id") text_pattern_ops);