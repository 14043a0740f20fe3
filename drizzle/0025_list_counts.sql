CREATE TABLE "list_count_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "list_count_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" integer NOT NULL,
	"list" text NOT NULL,
	"blockchain_id" integer NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"rows" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_counts" (
	"merchant_id" integer NOT NULL,
	"list" text NOT NULL,
	"blockchain_id" integer NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "list_counts_pk" PRIMARY KEY("merchant_id","list","blockchain_id","status","currency")
);
--> statement-breakpoint
CREATE INDEX "list_count_changes_merchant_idx" ON "list_count_changes" USING btree ("merchant_id","id");--> statement-breakpoint
-- Signed changes of the lists' counts (issue 31), appended by statement triggers in the writing
-- transaction: one row per key a statement changed, none when it changed no key (an update of
-- amount_received, a block number). Never a shared row to lock. TG_ARGV[0] names the list.
CREATE FUNCTION "list_counts_capture"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_count_changes" ("merchant_id", "list", "blockchain_id", "status", "currency", "rows")
    SELECT "merchant_id", TG_ARGV[0], "blockchain_id", "status", "currency", count(*)
    FROM "list_count_new_rows" WHERE "merchant_id" IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_count_changes" ("merchant_id", "list", "blockchain_id", "status", "currency", "rows")
    SELECT "merchant_id", TG_ARGV[0], "blockchain_id", "status", "currency", -count(*)
    FROM "list_count_old_rows" WHERE "merchant_id" IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
  ELSE
    INSERT INTO "list_count_changes" ("merchant_id", "list", "blockchain_id", "status", "currency", "rows")
    SELECT m, TG_ARGV[0], b, s, c, sum(n)
    FROM (
      SELECT "merchant_id" m, "blockchain_id" b, "status" s, "currency" c, 1 n FROM "list_count_new_rows" WHERE "merchant_id" IS NOT NULL
      UNION ALL
      SELECT "merchant_id", "blockchain_id", "status", "currency", -1 FROM "list_count_old_rows" WHERE "merchant_id" IS NOT NULL
    ) c
    GROUP BY m, b, s, c
    HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_order_insert" AFTER INSERT ON "payment_orders" REFERENCING NEW TABLE AS "list_count_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('orders');
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_order_update" AFTER UPDATE ON "payment_orders" REFERENCING OLD TABLE AS "list_count_old_rows" NEW TABLE AS "list_count_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('orders');
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_order_delete" AFTER DELETE ON "payment_orders" REFERENCING OLD TABLE AS "list_count_old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('orders');
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_transaction_insert" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS "list_count_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('transactions');
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_transaction_update" AFTER UPDATE ON "transactions" REFERENCING OLD TABLE AS "list_count_old_rows" NEW TABLE AS "list_count_new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('transactions');
--> statement-breakpoint
CREATE TRIGGER "list_counts_on_transaction_delete" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS "list_count_old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_capture"('transactions');
--> statement-breakpoint
-- The rows already there.
INSERT INTO "list_counts" ("merchant_id", "list", "blockchain_id", "status", "currency", "rows")
SELECT "merchant_id", 'orders', "blockchain_id", "status", "currency", count(*) FROM "payment_orders" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("merchant_id", "list", "blockchain_id", "status", "currency", "rows")
SELECT "merchant_id", 'transactions', "blockchain_id", "status", "currency", count(*) FROM "transactions" WHERE "merchant_id" IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
