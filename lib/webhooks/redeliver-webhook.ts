import "server-only";
import type { WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { findDelivery, findEndpointsByIds, restartDelivery } from "./queries";

/**
 * Starts a new cycle of attempts for a delivery, due now: the same row, body and webhook-id (so
 * a receiver that already processed it can tell), a fresh retry schedule. Its attempt log keeps
 * the earlier cycles. A delivery whose endpoint is disabled is refused: it would only fail again.
 */
export async function redeliverWebhook(db: DbOrTx, merchantId: number, id: number, now = new Date()): Promise<WebhookDelivery> {
  const delivery = await findDelivery(db, merchantId, id);
  if (!delivery) throw notFound("Webhook delivery");
  if (delivery.endpointId !== null) {
    const [endpoint] = await findEndpointsByIds(db, [delivery.endpointId]);
    if (endpoint && !endpoint.isActive) {
      throw new ApiError("CONFLICT", "The endpoint is disabled; enable it (PUT is_active: true) before redelivering.");
    }
  }
  const restarted = await restartDelivery(db, merchantId, delivery.id, now);
  if (!restarted) throw notFound("Webhook delivery");
  return restarted;
}
