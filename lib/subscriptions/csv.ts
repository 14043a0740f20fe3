import "server-only";
import { csvRow } from "@/lib/csv/writer";
import type { SubscriptionStatus } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { listSubscriptions } from "./subscriptions";

const header = [
  "subscription_id",
  "plan",
  "status",
  "blockchain",
  "currency",
  "max_amount",
  "interval_days",
  "customer_address",
  "customer_email",
  "merchant_address",
  "pull_address",
  "periods_charged",
  "starts_at",
  "ends_at",
  "canceled_at",
  "created_at",
];
const batch = 500;

/** The merchant's subscriptions (optionally in one status), newest first, as CSV text (the dashboard's export). */
export async function subscriptionsCsv(db: DbOrTx, merchantId: number, status?: SubscriptionStatus): Promise<string> {
  let out = csvRow(header);
  for (let offset = 0; ; offset += batch) {
    const { rows } = await listSubscriptions(db, merchantId, { status }, { limit: batch, offset });
    for (const s of rows) {
      out += csvRow([
        s.id,
        s.plan,
        s.status,
        s.blockchain,
        s.currency,
        s.max_amount,
        s.interval_days,
        s.customer_address,
        s.customer_email,
        s.merchant_address,
        s.pull_address,
        s.periods_charged,
        s.starts_at,
        s.ends_at,
        s.canceled_at,
        s.created_at,
      ]);
    }
    if (rows.length < batch) return out;
  }
}
