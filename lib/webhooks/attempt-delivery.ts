import "server-only";
import type { WebhookDelivery, WebhookEndpoint } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { observeWebhookAttempt } from "@/lib/metrics/record";
import { sendWebhook, type SendResult } from "./deliver";
import { accountSecretsByIds, type AccountSecrets } from "@/lib/auth/queries";
import { log } from "@/lib/log";
import { disableEndpoint, findEndpointsByIds, finishAttempts, insertAttempts, lockDeliveries, type AttemptOutcomeRow } from "./queries";
import type { NextState } from "./retry-schedule";
import { accountSigningSecrets, endpointSigningSecrets } from "./secrets";
import type { UrlPolicy } from "./url-safety";

/** Knobs the tests and the benchmark turn; production uses the defaults. */
export interface AttemptOptions {
  timeoutMs?: number;
  policy?: UrlPolicy;
}

/** Where a delivery goes now and what signs it, or why it must not go at all. */
export type Target = { url: string; secrets: [string, ...string[]]; endpoint: WebhookEndpoint | null } | { skip: string };

/**
 * Targets for a batch of deliveries. Endpoint deliveries follow the endpoint's current URL and
 * secrets (an edited URL or a rotated secret applies to pending retries too); deliveries to an
 * order's webhook_url keep the URL they were created with and use the account's secrets.
 */
export async function loadTargets(db: DbOrTx, deliveries: WebhookDelivery[], now: Date): Promise<Map<number, Target>> {
  const endpointIds = [...new Set(deliveries.flatMap((d) => (d.endpointId === null ? [] : [d.endpointId])))];
  const merchantIds = [...new Set(deliveries.filter((d) => d.endpointId === null).map((d) => d.merchantId))];
  const [endpoints, accounts] = await Promise.all([findEndpointsByIds(db, endpointIds), accountSecretsByIds(db, merchantIds)]);
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const accountById = new Map<number, AccountSecrets>(accounts.map((a) => [a.id, a]));
  const targets = new Map<number, Target>();
  for (const delivery of deliveries) {
    if (delivery.endpointId !== null) {
      const endpoint = endpointById.get(delivery.endpointId);
      if (!endpoint) targets.set(delivery.id, { skip: "The endpoint no longer exists." });
      else if (!endpoint.isActive) targets.set(delivery.id, { skip: "The endpoint is disabled." });
      else targets.set(delivery.id, { url: endpoint.url, secrets: endpointSigningSecrets(endpoint, now), endpoint });
    } else {
      const account = accountById.get(delivery.merchantId);
      if (!account) targets.set(delivery.id, { skip: "The account no longer exists." });
      else targets.set(delivery.id, { url: delivery.url, secrets: accountSigningSecrets(account, now), endpoint: null });
    }
  }
  return targets;
}

export async function sendTo(target: Exclude<Target, { skip: string }>, delivery: WebhookDelivery, options: AttemptOptions): Promise<SendResult> {
  const result = await sendWebhook({
    url: target.url,
    body: delivery.body,
    messageId: delivery.messageId,
    secrets: target.secrets,
    timeoutMs: options.timeoutMs,
    policy: options.policy,
  });
  observeWebhookAttempt(result.statusCode, result.durationMs / 1000);
  return result;
}

/** The outcome of one claimed attempt, ready to be written. `result` is null when nothing was sent (skipped). */
export interface AttemptRecord {
  delivery: WebhookDelivery;
  attemptNumber: number;
  url: string;
  result: SendResult | null;
  next: NextState | { status: "pending"; nextAttemptAt: null; reason: string };
}

/**
 * Logs attempts and applies their outcomes in one transaction (four statements however many there
 * are). The deliveries are locked first: one deleted meanwhile (its endpoint was deleted while the
 * attempt was in flight) is skipped with a warning, so it cannot fail the others' outcomes. Each
 * state change is fenced on its attempt number: an outcome that matches no row (the lease ran out
 * and another worker re-claimed the delivery, or it was settled meanwhile) is logged as an error,
 * since it means the webhook may have gone out twice; its attempt is still logged. Returns the
 * applied ids.
 */
export async function recordAttempts(db: DbOrTx, records: AttemptRecord[]): Promise<Set<number>> {
  if (records.length === 0) return new Set();
  const now = new Date();
  return db.transaction(async (tx) => {
    const current = new Map((await lockDeliveries(tx, [...new Set(records.map((r) => r.delivery.id))])).map((row) => [row.id, row]));
    const present = records.filter((r) => current.has(r.delivery.id));
    for (const { delivery, attemptNumber } of records) {
      if (!current.has(delivery.id))
        log.warn("webhook delivery deleted while its attempt was in flight; outcome dropped", {
          delivery_id: delivery.id,
          endpoint_id: delivery.endpointId,
          attempt: attemptNumber,
        });
    }
    await insertAttempts(
      tx,
      present.flatMap(({ delivery, result }) =>
        result
          ? [
              {
                deliveryId: delivery.id,
                attemptedAt: result.attemptedAt,
                statusCode: result.statusCode,
                durationMs: result.durationMs,
                requestHeaders: result.requestHeaders,
                responseBody: result.responseBody,
                error: result.error,
              },
            ]
          : [],
      ),
    );
    const applied = new Set(
      await finishAttempts(
        tx,
        present.map((record) => outcomeRow(record, now)),
        now,
      ),
    );
    for (const { delivery, attemptNumber, next } of present) {
      if (!applied.has(delivery.id)) {
        const row = current.get(delivery.id)!;
        log.error("webhook outcome matched no delivery: it was claimed again or settled while this attempt was in flight", {
          delivery_id: delivery.id,
          attempt: attemptNumber,
          outcome: next.status,
          current_attempts: row.attempts,
          current_status: row.status,
        });
      } else if (next.status === "failed" && "disableEndpoint" in next && next.disableEndpoint && delivery.endpointId !== null) {
        await disableEndpoint(tx, delivery.endpointId, `The receiver answered 410 Gone on ${now.toISOString()}.`, now);
      }
    }
    return applied;
  });
}

function outcomeRow({ delivery, attemptNumber, url, result, next }: AttemptRecord, now: Date): AttemptOutcomeRow {
  const common = { id: delivery.id, attempt: attemptNumber, url, lastStatusCode: result?.statusCode ?? null };
  if (next.status === "succeeded") return { ...common, status: "succeeded", lastError: null, nextAttemptAt: null, completedAt: now };
  if (next.status === "failed") return { ...common, status: "failed", lastError: next.reason, nextAttemptAt: null, completedAt: now };
  const nextAttemptAt = "delayMs" in next ? new Date(now.getTime() + next.delayMs) : next.nextAttemptAt;
  return { ...common, status: "pending", lastError: next.reason, nextAttemptAt, completedAt: null };
}

/** One attempt's `recordAttempts`. */
export async function recordAttempt(
  db: DbOrTx,
  delivery: WebhookDelivery,
  attemptNumber: number,
  url: string,
  result: SendResult | null,
  next: AttemptRecord["next"],
): Promise<{ applied: boolean }> {
  const applied = await recordAttempts(db, [{ delivery, attemptNumber, url, result, next }]);
  return { applied: applied.has(delivery.id) };
}
