ALTER TABLE "subscriptions" ADD COLUMN "customer_locale" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "receipt_contacts" ADD COLUMN "locale" text;