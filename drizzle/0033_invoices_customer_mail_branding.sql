CREATE TABLE "mail_suppressions" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"payment_order_id" integer NOT NULL,
	"amount" text NOT NULL,
	"credited_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_settings" (
	"merchant_id" integer PRIMARY KEY NOT NULL,
	"number_format" text NOT NULL,
	"allow_partial_payments" boolean NOT NULL,
	"reminder_days_before" jsonb NOT NULL,
	"reminder_days_after" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"client" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"taxes" jsonb NOT NULL,
	"currency" text NOT NULL,
	"subtotal" text NOT NULL,
	"tax_total" text NOT NULL,
	"total" text NOT NULL,
	"amount_paid" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"notes" text,
	"accepted_methods" jsonb NOT NULL,
	"sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"reminders_sent" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_contacts" (
	"payment_order_id" integer PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"email" text NOT NULL,
	"receipt_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_notices" (
	"refund_id" integer PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_branding" (
	"merchant_id" integer PRIMARY KEY NOT NULL,
	"display_name" text,
	"accent_color" text,
	"support_email" text,
	"support_url" text,
	"logo_png" "bytea",
	"logo_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_suppressions" ADD CONSTRAINT "mail_suppressions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD CONSTRAINT "invoice_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_contacts" ADD CONSTRAINT "receipt_contacts_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_contacts" ADD CONSTRAINT "receipt_contacts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_notices" ADD CONSTRAINT "refund_notices_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_branding" ADD CONSTRAINT "store_branding_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_suppressions_email_idx" ON "mail_suppressions" USING btree ("email","merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_order_key" ON "invoice_payments" USING btree ("payment_order_id");--> statement-breakpoint
CREATE INDEX "invoice_payments_uncredited_idx" ON "invoice_payments" USING btree ("credited_at","invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_id_key" ON "invoices" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_merchant_sequence_key" ON "invoices" USING btree ("merchant_id","sequence");--> statement-breakpoint
CREATE INDEX "invoices_merchant_idx" ON "invoices" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "receipt_contacts_unsent_idx" ON "receipt_contacts" USING btree ("receipt_sent_at");