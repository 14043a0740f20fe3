import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { forgetMerchantCredentials } from "./credential-cache";
import { hourlyLimit, plans, type Plan } from "./rate-limit";
import { findMerchantByUsername, updateMerchantPlan } from "./queries";

/** A merchant's plan as an operator sees it (`npm run admin -- show`). */
export interface MerchantPlan {
  id: number;
  username: string;
  plan: string;
  /** The account's own requests/hour (enterprise only); null: the plan's default. */
  rateLimitPerHour: number | null;
  /** What X-RateLimit-Limit says for this account now. */
  effectiveLimitPerHour: number;
}

/** An operator mistake (unknown merchant, plan or limit): the CLI prints it and exits 1. */
export class AdminError extends Error {}

function describePlan(row: { id: number; username: string; plan: string; rateLimitPerHour: number | null }): MerchantPlan {
  return { ...row, effectiveLimitPerHour: hourlyLimit(row.plan, row.rateLimitPerHour) };
}

export async function showMerchantPlan(db: DbOrTx, username: string): Promise<MerchantPlan> {
  const merchant = await findMerchantByUsername(db, username);
  if (!merchant) throw new AdminError(`No merchant named '${username}'.`);
  return describePlan(merchant);
}

/**
 * Sets a merchant's plan and, for enterprise, its own hourly limit (spec › Limits: "Enterprise:
 * custom"). Without `rateLimitPerHour` the account gets its plan's default (any earlier own value
 * is cleared). It takes effect on the merchant's next request in this process, and within
 * credentialCacheTtlMs (5 s) in a running server (lib/auth/credential-cache.ts).
 */
export async function setMerchantPlan(
  db: DbOrTx,
  username: string,
  plan: string,
  rateLimitPerHour: number | null = null,
  now = new Date(),
): Promise<MerchantPlan> {
  if (!(plans as readonly string[]).includes(plan)) throw new AdminError(`Unknown plan '${plan}'; one of: ${plans.join(", ")}.`);
  if (rateLimitPerHour !== null) {
    if (!Number.isSafeInteger(rateLimitPerHour) || rateLimitPerHour < 1 || rateLimitPerHour > 2_147_483_647) {
      throw new AdminError("The rate limit must be a whole number of requests per hour, 1 to 2147483647.");
    }
    if (plan !== "enterprise")
      throw new AdminError(`Only enterprise accounts have their own rate limit; ${plan} uses RATE_LIMIT_${plan.toUpperCase()}_PER_HOUR.`);
  }
  const merchant = await findMerchantByUsername(db, username);
  if (!merchant) throw new AdminError(`No merchant named '${username}'.`);
  const row = await db.transaction(async (tx) => {
    const updated = await updateMerchantPlan(tx, merchant.id, plan as Plan, rateLimitPerHour, now);
    await recordAudit(tx, {
      merchantId: merchant.id,
      action: "account.plan_changed",
      target: `account:${merchant.id}`,
      before: { plan: merchant.plan, rate_limit_per_hour: merchant.rateLimitPerHour },
      after: { plan: updated.plan, rate_limit_per_hour: updated.rateLimitPerHour },
      now,
    });
    return updated;
  });
  forgetMerchantCredentials(merchant.id);
  return describePlan(row);
}
