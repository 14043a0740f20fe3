import "server-only";
import type { WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { loadTargets, recordAttempts, sendTo, type AttemptOptions, type AttemptRecord, type Target } from "./attempt-delivery";
import { deliveryTimeoutMs } from "./deliver";
import { claimDueDeliveries } from "./queries";
import { nextState, retrySchedule, type RetrySchedule } from "./retry-schedule";

/** Deliveries claimed per round: two waves of the default concurrency. */
export const defaultClaimLimit = 64;
/** Parallel HTTP attempts per worker: delivery time is mostly waiting on receivers. */
export const defaultConcurrency = 32;
/** Outcomes written per transaction. */
const recordBatchSize = 32;

/**
 * How long a claim is held: the slowest possible round (every wave of `concurrency` attempts
 * hitting the timeout) plus a margin for the database (WEBHOOK_LEASE_MARGIN_SECONDS, default a
 * minute). A worker that dies mid-round loses its claims after this long and another worker (or
 * it, restarted) delivers them again with the same webhook-id.
 */
export function leaseFor(limit: number, concurrency: number, timeoutMs: number): number {
  return Math.ceil(limit / concurrency) * timeoutMs + env.WEBHOOK_LEASE_MARGIN_SECONDS * 1000;
}
export const defaultLeaseMs = leaseFor(defaultClaimLimit, defaultConcurrency, deliveryTimeoutMs);

export interface DeliverDueOptions extends AttemptOptions {
  limit?: number;
  concurrency?: number;
  leaseMs?: number;
  schedule?: RetrySchedule;
  random?: () => number;
}

/** The order a delivery's event is about (its body's `data.order_id`), so one order's events can be kept in sequence. */
function orderOf(delivery: WebhookDelivery): string {
  try {
    return String((JSON.parse(delivery.body) as { data?: { order_id?: unknown } }).data?.order_id ?? delivery.id);
  } catch {
    return String(delivery.id);
  }
}

/** Claimed deliveries grouped by (receiver, order), each group in event order (deliveries are written in event order). */
function inOrderGroups(claimed: WebhookDelivery[]): WebhookDelivery[][] {
  const groups = new Map<string, WebhookDelivery[]>();
  for (const delivery of [...claimed].sort((a, b) => a.id - b.id)) {
    const key = `${delivery.url}\n${orderOf(delivery)}`;
    groups.set(key, [...(groups.get(key) ?? []), delivery]);
  }
  return [...groups.values()];
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function forEachConcurrently<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

async function attemptClaimed(delivery: WebhookDelivery, target: Target | undefined, options: DeliverDueOptions, schedule: RetrySchedule): Promise<AttemptRecord> {
  const attemptNumber = delivery.attempts;
  if (!target || "skip" in target) {
    const reason = target?.skip ?? "No target.";
    return { delivery, attemptNumber, url: delivery.url, result: null, next: { status: "failed", reason, disableEndpoint: false } };
  }
  const result = await sendTo(target, delivery, options);
  return { delivery, attemptNumber, url: target.url, result, next: nextState(result, attemptNumber, schedule, options.random) };
}

/**
 * The local driver's delivery task: claims one round of due deliveries (SKIP LOCKED, leased),
 * attempts them in parallel, and records the outcomes in small batches (one transaction of two
 * statements per batch, which is what lets one worker deliver hundreds a second). Returns how many
 * were claimed, so callers can drain a backlog. An outcome that fails to be recorded is logged;
 * its delivery falls due again when the lease ends (at-least-once).
 */
export async function deliverDueWebhooks(db: DbOrTx, options: DeliverDueOptions = {}): Promise<number> {
  const now = new Date();
  const limit = options.limit ?? defaultClaimLimit;
  const concurrency = options.concurrency ?? defaultConcurrency;
  const leaseMs = options.leaseMs ?? leaseFor(limit, concurrency, options.timeoutMs ?? deliveryTimeoutMs);
  const claimed = await claimDueDeliveries(db, now, new Date(now.getTime() + leaseMs), limit);
  if (claimed.length === 0) return 0;
  const targets = await loadTargets(db, claimed, now);
  const schedule = options.schedule ?? retrySchedule();

  let buffer: AttemptRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const records = buffer;
    buffer = [];
    writing = writing.then(() =>
      recordAttempts(db, records).then(
        () => {},
        (error) => log.error("webhook attempts failed to record", { delivery_ids: records.map((r) => r.delivery.id), ...describeError(error) }),
      ),
    );
  };
  // One order's events to one receiver go one after another, in the order they happened; the rest in parallel.
  await forEachConcurrently(inOrderGroups(claimed), concurrency, async (group) => {
    for (const delivery of group) {
      buffer.push(await attemptClaimed(delivery, targets.get(delivery.id), options, schedule));
      if (buffer.length >= recordBatchSize) flush();
    }
  });
  flush();
  await writing;
  return claimed.length;
}

/** Delivers until nothing is due (or `signal` aborts between rounds). */
export async function drainDueWebhooks(db: DbOrTx, options: DeliverDueOptions & { signal?: AbortSignal } = {}): Promise<number> {
  const limit = options.limit ?? defaultClaimLimit;
  let total = 0;
  for (;;) {
    const claimed = await deliverDueWebhooks(db, { ...options, limit });
    total += claimed;
    if (claimed < limit || options.signal?.aborted) return total;
  }
}
