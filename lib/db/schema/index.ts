/**
 * The database schema, split by the domain that owns each table (lib/<domain>/queries.ts holds its
 * statements); drizzle-kit reads this barrel (drizzle.config.ts). Import tables from "@/lib/db/schema".
 */
export * from "./accounts";
export * from "./rate-limit";
export * from "./members";
export * from "./mail";
export * from "./idempotency";
export * from "./wallets";
export * from "./orders";
export * from "./list-counts";
export * from "./payment-links";
export * from "./refunds";
export * from "./payouts";
export * from "./webhooks";
export * from "./audit";
export * from "./chains";
export * from "./gasless";
export * from "./subscriptions";
export * from "./screening";
export * from "./tokens";
export * from "./invoices";
export * from "./receipts";
export * from "./branding";
