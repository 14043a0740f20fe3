CREATE TABLE "subscription_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"name" text NOT NULL,
	"blockchain_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" text,
	"price_amount" text,
	"price_currency" text,
	"max_amount_per_period" numeric(78, 0) NOT NULL,
	"interval_days" integer NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"grace_days" integer DEFAULT 3 NOT NULL,
	"past_due_days" integer DEFAULT 7 NOT NULL,
	"periods" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"status" text NOT NULL,
	"blockchain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"subscriber_address" text NOT NULL,
	"merchant_address" text NOT NULL,
	"operator_address" text NOT NULL,
	"max_amount_per_period" numeric(78, 0) NOT NULL,
	"period_seconds" bigint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"terms_id" text NOT NULL,
	"pull_address" text NOT NULL,
	"customer_email" text,
	"next_period" integer DEFAULT 0 NOT NULL,
	"periods_charged" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_events_subscription_idx" ON "subscription_events" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_plans_plan_id_key" ON "subscription_plans" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant_idx" ON "subscription_plans" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_subscription_id_key" ON "subscriptions" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_pull_address_key" ON "subscriptions" USING btree ("blockchain_id","pull_address");--> statement-breakpoint
CREATE INDEX "subscriptions_merchant_idx" ON "subscriptions" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("next_attempt_at");