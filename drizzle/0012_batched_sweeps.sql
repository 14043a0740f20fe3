ALTER TABLE "payment_orders" ADD COLUMN "deposit_factory_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "gas_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "gas_cost_wei" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "last_gas_used" bigint;--> statement-breakpoint
ALTER TABLE "sweeps" ADD COLUMN "last_gas_cost_wei" numeric(78, 0);