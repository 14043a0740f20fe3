CREATE TABLE "subscription_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "authorized_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_mails" ADD CONSTRAINT "subscription_mails_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_mails_kind_source_key" ON "subscription_mails" USING btree ("kind","source_id");--> statement-breakpoint
CREATE INDEX "subscription_mails_subscription_idx" ON "subscription_mails" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "subscription_charges_confirmed_idx" ON "subscription_charges" USING btree ("confirmed_at") WHERE status = 'confirmed';--> statement-breakpoint
CREATE INDEX "subscription_events_notice_idx" ON "subscription_events" USING btree ("created_at") WHERE kind in ('past_due', 'canceled');--> statement-breakpoint
CREATE INDEX "subscriptions_authorized_idx" ON "subscriptions" USING btree ("authorized_at") WHERE customer_email is not null;