ALTER TABLE "gasless_relays" ALTER COLUMN "payment_order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "subscription_charge_id" integer;--> statement-breakpoint
ALTER TABLE "gasless_relays" ADD COLUMN "subscription_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_subscription_charge_id_subscription_charges_id_fk" FOREIGN KEY ("subscription_charge_id") REFERENCES "public"."subscription_charges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gasless_relays" ADD CONSTRAINT "gasless_relays_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_subscription_charge_key" ON "transactions" USING btree ("subscription_charge_id") WHERE subscription_charge_id is not null;