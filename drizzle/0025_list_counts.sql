CREATE TABLE "list_count_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "list_count_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" integer NOT NULL,
	"list" text NOT NULL,
	"scope_id" integer NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"rows" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_counts" (
	"merchant_id" integer NOT NULL,
	"list" text NOT NULL,
	"scope_id" integer NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "list_counts_pk" PRIMARY KEY("merchant_id","list","scope_id","kind","currency")
);
--> statement-breakpoint
CREATE INDEX "list_count_changes_merchant_idx" ON "list_count_changes" USING btree ("merchant_id","id");--> statement-breakpoint
-- Signed changes of the lists' counts (issue 31), appended by statement triggers in the writing
-- transaction: one row per key a statement changed, none when it changed no key (an update of
-- amount_received, a delivery's next attempt). Never a shared row to lock. Each table gets its own
-- trigger function, made here from one template with the SQL of its key's parts (scope, kind,
-- currency) over its columns: static statements, whose plans PL/pgSQL keeps (a dynamic EXECUTE cost
-- ~100 µs more per write statement, measured). Rows without a merchant or a scope (a transfer to no
-- order, a delivery to an order's own URL, which no list shows) are not counted.
DO $migration$
DECLARE
  spec record;
  keys text;
  counted text;
BEGIN
  FOR spec IN SELECT * FROM (VALUES
    ('payment_orders', 'orders', 'blockchain_id', 'status', 'currency'),
    ('transactions', 'transactions', 'blockchain_id', 'status', 'currency'),
    ('order_events', 'events', '0', 'type', ''''''),
    ('webhook_deliveries', 'deliveries', 'endpoint_id', 'status', '''''')
  ) AS s(table_name, list, scope, kind, currency)
  LOOP
    keys := format('merchant_id m, (%s)::integer s, (%s)::text k, (%s)::text c', spec.scope, spec.kind, spec.currency);
    counted := format('merchant_id IS NOT NULL AND (%s) IS NOT NULL', spec.scope);
    EXECUTE format($function$
      CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO list_count_changes (merchant_id, list, scope_id, kind, currency, rows)
          SELECT m, %2$L, s, k, c, count(*) FROM (SELECT %3$s FROM list_count_new_rows WHERE %4$s) changed GROUP BY m, s, k, c;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO list_count_changes (merchant_id, list, scope_id, kind, currency, rows)
          SELECT m, %2$L, s, k, c, -count(*) FROM (SELECT %3$s FROM list_count_old_rows WHERE %4$s) changed GROUP BY m, s, k, c;
        ELSE
          INSERT INTO list_count_changes (merchant_id, list, scope_id, kind, currency, rows)
          SELECT m, %2$L, s, k, c, sum(n) FROM (
            SELECT %3$s, 1 n FROM list_count_new_rows WHERE %4$s
            UNION ALL
            SELECT %3$s, -1 n FROM list_count_old_rows WHERE %4$s
          ) changed GROUP BY m, s, k, c HAVING sum(n) <> 0;
        END IF;
        RETURN NULL;
      END
      $body$$function$, 'list_counts_capture_' || spec.list, spec.list, keys, counted);
    EXECUTE format('CREATE TRIGGER list_counts_on_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS list_count_new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      spec.table_name, 'list_counts_capture_' || spec.list);
    EXECUTE format('CREATE TRIGGER list_counts_on_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS list_count_old_rows NEW TABLE AS list_count_new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      spec.table_name, 'list_counts_capture_' || spec.list);
    EXECUTE format('CREATE TRIGGER list_counts_on_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS list_count_old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      spec.table_name, 'list_counts_capture_' || spec.list);
  END LOOP;
END
$migration$;
--> statement-breakpoint
-- The rows already there.
INSERT INTO "list_counts" ("merchant_id", "list", "scope_id", "kind", "currency", "rows")
SELECT "merchant_id", 'orders', "blockchain_id", "status", "currency", count(*) FROM "payment_orders" GROUP BY 1, 2, 3, 4, 5
UNION ALL
SELECT "merchant_id", 'transactions', "blockchain_id", "status", "currency", count(*) FROM "transactions" WHERE "merchant_id" IS NOT NULL GROUP BY 1, 2, 3, 4, 5
UNION ALL
SELECT "merchant_id", 'events', 0, "type", '', count(*) FROM "order_events" GROUP BY 1, 2, 3, 4, 5
UNION ALL
SELECT "merchant_id", 'deliveries', "endpoint_id", "status", '', count(*) FROM "webhook_deliveries" WHERE "merchant_id" IS NOT NULL AND "endpoint_id" IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
