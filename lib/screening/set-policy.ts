import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { Db } from "@/lib/db/types";
import { asScreeningAction, type ScreeningAction } from "./policy";
import { findScreeningPolicy, upsertScreeningPolicy } from "./queries";

/** Sets what the store does with a payer that fails screening, with an audit entry. */
export async function setScreeningPolicy(db: Db, merchantId: number, onMatch: ScreeningAction, now = new Date()): Promise<ScreeningAction> {
  return db.transaction(async (tx) => {
    const before = asScreeningAction(await findScreeningPolicy(tx, merchantId));
    await upsertScreeningPolicy(tx, merchantId, onMatch, now);
    if (before !== onMatch)
      await recordAudit(tx, {
        merchantId,
        action: "screening.policy_changed",
        target: "screening_policy",
        before: { on_match: before },
        after: { on_match: onMatch },
        now,
      });
    return onMatch;
  });
}
