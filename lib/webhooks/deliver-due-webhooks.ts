import "server-only";
import type { WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { loadTargets, recordAttempts, sendTo, type AttemptOptions, type AttemptRecord, type Target } from "./attempt-delivery";
import { attemptTimeoutMs } from "./deliver";
import { claimDueDeliveries } from "./queries";
import { nextState, retrySchedule, type RetrySchedule } from "./retry-schedule";

/** Attempts in flight at once in one worker, all receivers together: delivery time is mostly waiting on receivers. */
export const defaultConcurrency = 64;
/** Attempts in flight at once to one receiver (an endpoint, or one order webhook_url): a hanging one holds no more than this. */
export const defaultPerReceiver = 16;
/** Outcomes written per transaction at most (the writer takes whatever is waiting, up to this). */
const recordBatchSize = 64;
/** A worker with deliveries in flight looks for new work at least this often (deliveries another instance recorded, unkicked). */
const busyPollMs = 1000;

/**
 * How long a claim is held: one attempt's timeout plus a margin for writing its outcome
 * (WEBHOOK_LEASE_MARGIN_SECONDS, default a minute). Each delivery's outcome is written as soon as
 * its own attempt ends, so nothing else is waited for under the lease. A worker that dies
 * mid-attempt loses its claims after this long and another worker (or it, restarted) delivers
 * them again with the same webhook-id.
 */
export function leaseMs(timeoutMs = attemptTimeoutMs()): number {
  return timeoutMs + env.WEBHOOK_LEASE_MARGIN_SECONDS * 1000;
}

export interface DeliverDueOptions extends AttemptOptions {
  /** Attempts in flight at once in this worker (default 64). */
  concurrency?: number;
  /** Attempts in flight at once to one receiver (default 16). */
  perReceiver?: number;
  leaseMs?: number;
  schedule?: RetrySchedule;
  random?: () => number;
}

/**
 * Writes outcomes as they come, in one transaction per group of whatever is waiting (group
 * commit: one worker can record hundreds a second, and no outcome waits for others to finish). A
 * group that fails is written again one outcome at a time, so one bad row cannot take other
 * deliveries' (other merchants') outcomes with it; an outcome that still cannot be written is
 * logged, and its delivery falls due again when its lease ends (at-least-once).
 */
class OutcomeWriter {
  private queue: Array<{ record: AttemptRecord; done: () => void }> = [];
  private running = false;

  constructor(private readonly db: DbOrTx) {}

  write(record: AttemptRecord): Promise<void> {
    return new Promise((done) => {
      this.queue.push({ record, done });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, recordBatchSize);
      try {
        await recordAttempts(
          this.db,
          group.map((g) => g.record),
        );
      } catch (error) {
        if (group.length > 1)
          log.warn("webhook outcomes failed to record together; writing them one by one", {
            delivery_ids: group.map((g) => g.record.delivery.id),
            ...describeError(error),
          });
        if (group.length === 1)
          log.error("webhook outcome failed to record; the delivery falls due again when its lease ends", {
            delivery_id: group[0]!.record.delivery.id,
            ...describeError(error),
          });
        else
          for (const { record } of group) {
            await recordAttempts(this.db, [record]).catch((single) =>
              log.error("webhook outcome failed to record; the delivery falls due again when its lease ends", {
                delivery_id: record.delivery.id,
                ...describeError(single),
              }),
            );
          }
      }
      for (const { done } of group) done();
    }
    this.running = false;
  }
}

async function attemptClaimed(
  delivery: WebhookDelivery,
  target: Target | undefined,
  options: DeliverDueOptions,
  schedule: RetrySchedule,
): Promise<AttemptRecord> {
  const attemptNumber = delivery.attempts;
  if (!target || "skip" in target) {
    const reason = target?.skip ?? "No target.";
    return { delivery, attemptNumber, url: delivery.url, result: null, next: { status: "failed", reason, disableEndpoint: false } };
  }
  const result = await sendTo(target, delivery, options);
  return { delivery, attemptNumber, url: target.url, result, next: nextState(result, attemptNumber, schedule, options.random) };
}

/**
 * One worker's deliveries in flight. Each is claimed on its own (at most `perReceiver` per
 * receiver, one per order and receiver) and its outcome written the moment its attempt ends, which
 * frees its slot: a hanging receiver holds at most its own `perReceiver` slots, and every other
 * receiver's deliveries come and go meanwhile. One order's next event to a receiver is claimed
 * only once the previous one is settled, so they arrive one after another, in order.
 */
class DeliveriesInFlight {
  private readonly flying = new Map<number, { receiver: string; order: string }>();
  private readonly settled = new Set<Promise<void>>();
  /** When retries this worker scheduled fall due (ms since epoch), so it wakes for them without asking the database. */
  private retriesDue: number[] = [];
  private readonly writer: OutcomeWriter;
  private ended: () => void = () => {};
  private nextEnd: Promise<void> = this.newEnd();

  constructor(
    private readonly db: DbOrTx,
    private readonly options: DeliverDueOptions,
  ) {
    this.writer = new OutcomeWriter(db);
  }

  private newEnd() {
    return new Promise<void>((resolve) => (this.ended = resolve));
  }

  get count(): number {
    return this.flying.size;
  }

  get freeSlots(): number {
    return Math.max(0, (this.options.concurrency ?? defaultConcurrency) - this.flying.size);
  }

  /** The soonest retry this worker scheduled that is not due yet (null: none). */
  nextRetryDue(now: number): number | null {
    this.retriesDue = this.retriesDue.filter((at) => at > now);
    return this.retriesDue.length === 0 ? null : Math.min(...this.retriesDue);
  }

  /** Resolves when the next delivery in flight ends (its outcome written). */
  anyEnd(): Promise<void> {
    return this.nextEnd;
  }

  /** Claims what is due within the free slots and starts each attempt. Returns how many were claimed. */
  async claimAndStart(): Promise<number> {
    const limit = this.freeSlots;
    if (limit === 0) return 0;
    const now = new Date();
    const lease = this.options.leaseMs ?? leaseMs(this.options.timeoutMs ?? attemptTimeoutMs());
    const claimed = await claimDueDeliveries(this.db, now, new Date(now.getTime() + lease), limit, {
      perReceiver: this.options.perReceiver ?? defaultPerReceiver,
      inFlight: [...this.flying.values()],
    });
    if (claimed.length === 0) return 0;
    for (const { delivery, receiver, order } of claimed) this.flying.set(delivery.id, { receiver, order });
    let targets: Map<number, Target>;
    try {
      targets = await loadTargets(
        this.db,
        claimed.map((c) => c.delivery),
        now,
      );
    } catch (error) {
      // Nothing was sent: the claims simply run out and the deliveries fall due again.
      for (const { delivery } of claimed) this.flying.delete(delivery.id);
      throw error;
    }
    const schedule = this.options.schedule ?? retrySchedule();
    for (const { delivery } of claimed) {
      const done = attemptClaimed(delivery, targets.get(delivery.id), this.options, schedule)
        .then((record) => {
          if (record.next.status === "pending" && "delayMs" in record.next) this.retriesDue.push(Date.now() + record.next.delayMs);
          return this.writer.write(record);
        })
        .finally(() => {
          this.flying.delete(delivery.id);
          this.settled.delete(done);
          const ended = this.ended;
          this.nextEnd = this.newEnd();
          ended();
        });
      this.settled.add(done);
    }
    return claimed.length;
  }

  /** Waits for every delivery in flight to end. */
  async settle(): Promise<void> {
    while (this.settled.size > 0) await Promise.all([...this.settled]);
  }
}

/**
 * One pass, for callers that step the work themselves (tests, the crash fixture): claims what is
 * due for every receiver (at most `perReceiver` each, one per order), attempts it all and writes
 * every outcome. Returns how many were claimed; call again until it returns 0 to drain.
 */
export async function deliverDueWebhooks(db: DbOrTx, options: DeliverDueOptions = {}): Promise<number> {
  const inFlight = new DeliveriesInFlight(db, options);
  const claimed = await inFlight.claimAndStart();
  await inFlight.settle();
  return claimed;
}

export interface DrainOptions extends DeliverDueOptions {
  /** Stops claiming when aborted; what is in flight is finished. */
  signal?: AbortSignal;
  /** Resolves when there may be new work (the job driver's kick): the worker looks at once instead of at its next poll. */
  wake?: () => Promise<void>;
}

/**
 * The local driver's delivery loop: keeps deliveries going until nothing is due or in flight.
 * Whenever one ends, a kick arrives, or the next delivery falls due, it claims again within the
 * free slots, so no receiver waits on another's slow attempts and retries leave on their
 * schedule. Returns how many deliveries it claimed.
 */
export async function drainDueWebhooks(db: DbOrTx, options: DrainOptions = {}): Promise<number> {
  const inFlight = new DeliveriesInFlight(db, options);
  let onAbort: () => void = () => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let total = 0;
  try {
    for (;;) {
      // Taken before claiming, so a delivery that ends or a kick that comes while claiming is not missed.
      const anyEnd = inFlight.anyEnd();
      const kicked = options.wake?.();
      const started = performance.now();
      const claimed = options.signal?.aborted ? 0 : await inFlight.claimAndStart();
      total += claimed;
      log.debug("webhook deliveries claimed", { claimed, in_flight: inFlight.count, claim_ms: Math.round(performance.now() - started) });
      if (inFlight.count === 0) {
        if (claimed === 0) return total;
        continue;
      }
      if (options.signal?.aborted) {
        await inFlight.settle();
        return total;
      }
      const waits: Promise<unknown>[] = [anyEnd, aborted];
      if (kicked) waits.push(kicked);
      let timer: NodeJS.Timeout | undefined;
      if (inFlight.freeSlots > 0) {
        // Retries scheduled here wake it when due; anything else (another instance's work, leases running out) within busyPollMs.
        const due = inFlight.nextRetryDue(Date.now());
        const wait = Math.min(busyPollMs, due === null ? busyPollMs : Math.max(0, due - Date.now()));
        waits.push(new Promise((resolve) => (timer = setTimeout(resolve, wait))));
      }
      await Promise.race(waits);
      clearTimeout(timer);
    }
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await inFlight.settle();
  }
}
