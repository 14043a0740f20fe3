CREATE TABLE "order_day_total_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_day_total_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" integer NOT NULL,
	"day" date NOT NULL,
	"blockchain_id" integer NOT NULL,
	"currency" text NOT NULL,
	"decimals" integer NOT NULL,
	"status" text NOT NULL,
	"price_currency" text NOT NULL,
	"orders" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"price_amount" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_day_totals" (
	"merchant_id" integer NOT NULL,
	"day" date NOT NULL,
	"blockchain_id" integer NOT NULL,
	"currency" text NOT NULL,
	"decimals" integer NOT NULL,
	"status" text NOT NULL,
	"price_currency" text NOT NULL,
	"orders" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"price_amount" numeric NOT NULL,
	CONSTRAINT "order_day_totals_pk" PRIMARY KEY("merchant_id","day","blockchain_id","currency","decimals","status","price_currency")
);
--> statement-breakpoint
CREATE INDEX "order_day_total_changes_merchant_idx" ON "order_day_total_changes" USING btree ("merchant_id","id");--> statement-breakpoint
-- Signed changes of the per-day totals, appended by statement triggers in the writing transaction
-- (issue 31): one row per key a statement touched, none when a statement leaves the key unchanged
-- (an update of amount_received, a timestamp). A row per order state, never a shared row to lock.
CREATE FUNCTION "order_day_totals_capture"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "order_day_total_changes" ("merchant_id", "day", "blockchain_id", "currency", "decimals", "status", "price_currency", "orders", "amount", "price_amount")
    SELECT "merchant_id", ("created_at" AT TIME ZONE 'UTC')::date, "blockchain_id", "currency", "decimals", "status", coalesce("price_currency", ''),
      count(*), sum("amount"), coalesce(sum("price_amount"::numeric), 0)
    FROM "order_day_new_rows" GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "order_day_total_changes" ("merchant_id", "day", "blockchain_id", "currency", "decimals", "status", "price_currency", "orders", "amount", "price_amount")
    SELECT "merchant_id", ("created_at" AT TIME ZONE 'UTC')::date, "blockchain_id", "currency", "decimals", "status", coalesce("price_currency", ''),
      -count(*), -sum("amount"), -coalesce(sum("price_amount"::numeric), 0)
    FROM "order_day_old_rows" GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    INSERT INTO "order_day_total_changes" ("merchant_id", "day", "blockchain_id", "currency", "decimals", "status", "price_currency", "orders", "amount", "price_amount")
    SELECT m, d, b, c, dec, s, pc, sum(n), sum(a), sum(p)
    FROM (
      SELECT "merchant_id" m, ("created_at" AT TIME ZONE 'UTC')::date d, "blockchain_id" b, "currency" c, "decimals" dec, "status" s,
        coalesce("price_currency", '') pc, 1 n, "amount" a, coalesce("price_amount"::numeric, 0) p
      FROM "order_day_new_rows"
      UNION ALL
      SELECT "merchant_id", ("created_at" AT TIME ZONE 'UTC')::date, "blockchain_id", "currency", "decimals", "status",
        coalesce("price_currency", ''), -1, -"amount", -coalesce("price_amount"::numeric, 0)
      FROM "order_day_old_rows"
    ) c
    GROUP BY m, d, b, c, dec, s, pc
    HAVING sum(n) <> 0 OR sum(a) <> 0 OR sum(p) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "order_day_totals_on_insert" AFTER INSERT ON "payment_orders" REFERENCING NEW TABLE AS "order_day_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_day_totals_capture"();
--> statement-breakpoint
CREATE TRIGGER "order_day_totals_on_update" AFTER UPDATE ON "payment_orders" REFERENCING OLD TABLE AS "order_day_old_rows" NEW TABLE AS "order_day_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_day_totals_capture"();
--> statement-breakpoint
CREATE TRIGGER "order_day_totals_on_delete" AFTER DELETE ON "payment_orders" REFERENCING OLD TABLE AS "order_day_old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_day_totals_capture"();
--> statement-breakpoint
-- The orders already there.
INSERT INTO "order_day_totals" ("merchant_id", "day", "blockchain_id", "currency", "decimals", "status", "price_currency", "orders", "amount", "price_amount")
SELECT "merchant_id", ("created_at" AT TIME ZONE 'UTC')::date, "blockchain_id", "currency", "decimals", "status", coalesce("price_currency", ''),
  count(*), sum("amount"), coalesce(sum("price_amount"::numeric), 0)
FROM "payment_orders" GROUP BY 1, 2, 3, 4, 5, 6, 7;
