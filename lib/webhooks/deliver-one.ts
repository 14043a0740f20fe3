import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { loadTargets, recordAttempt, sendTo, type AttemptOptions } from "./attempt-delivery";
import { countAttempt, failPendingDelivery, findDeliveryById } from "./queries";
import { nextState, retrySchedule, type RetrySchedule } from "./retry-schedule";

export type DeliverOnceResult =
  | { outcome: "nothing_to_do"; status: string }
  | { outcome: "succeeded"; attempt: number; statusCode: number | null }
  | { outcome: "failed"; attempt: number; reason: string }
  | { outcome: "retry"; attempt: number; reason: string; delayMs: number };

/**
 * One attempt at one delivery for a driver that owns the timing of retries (Inngest): it logs
 * the attempt, settles success and final failure (same rules and schedule as the local driver),
 * and for a retry leaves the delivery pending with no `next_attempt_at` and says how long to
 * wait. Calling it again for a settled delivery does nothing.
 */
export async function deliverOnce(db: DbOrTx, deliveryId: number, options: AttemptOptions & { schedule?: RetrySchedule } = {}): Promise<DeliverOnceResult> {
  const found = await findDeliveryById(db, deliveryId);
  if (!found || found.status !== "pending") return { outcome: "nothing_to_do", status: found?.status ?? "missing" };
  const now = new Date();
  const delivery = await countAttempt(db, deliveryId, now);
  if (!delivery) return { outcome: "nothing_to_do", status: "settled" };
  const attempt = delivery.attempts;
  const target = (await loadTargets(db, [delivery], now)).get(delivery.id)!;
  if ("skip" in target) {
    await failPendingDelivery(db, delivery.id, target.skip, now);
    return { outcome: "failed", attempt, reason: target.skip };
  }
  const result = await sendTo(target, delivery, options);
  const next = nextState(result, attempt, options.schedule ?? retrySchedule());
  if (next.status === "pending") {
    await recordAttempt(db, delivery, attempt, target.url, result, { status: "pending", nextAttemptAt: null, reason: next.reason });
    return { outcome: "retry", attempt, reason: next.reason, delayMs: next.delayMs };
  }
  await recordAttempt(db, delivery, attempt, target.url, result, next);
  return next.status === "succeeded" ? { outcome: "succeeded", attempt, statusCode: result.statusCode } : { outcome: "failed", attempt, reason: next.reason };
}
