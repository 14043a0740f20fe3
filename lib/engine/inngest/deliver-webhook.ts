import "server-only";
import { NonRetriableError, RetryAfterError } from "inngest";
import { getDb } from "@/lib/db/client";
import { deliverOnce } from "@/lib/webhooks/deliver-one";
import { failPendingDelivery } from "@/lib/webhooks/queries";
import { inngest } from "@/lib/jobs/inngest/client";
import { webhookDeliveryDue } from "./events";

/**
 * Marks the delivery failed once Inngest has given up on it (retries exhausted, or a run that
 * could not finish). Never overwrites a delivery that succeeded: it only touches pending ones.
 */
export async function markDeliveryGivenUp(deliveryId: number, message: string): Promise<{ marked: boolean }> {
  const marked = await failPendingDelivery(await getDb(), deliveryId, `Gave up: ${message}`, new Date());
  return { marked };
}

/**
 * One run per delivery (event `gateway/webhook.delivery-due`). Each Inngest attempt of the
 * `attempt` step is one logged HTTP attempt; a retryable outcome throws RetryAfterError with the
 * delay the shared schedule (or the receiver's Retry-After) asks for, so Inngest keeps the
 * timing and the local driver's rules still hold. When the schedule is used up the step returns
 * `failed` on its own; `onFailure` covers runs that Inngest ends (20 retries at most).
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    retries: 20,
    triggers: [webhookDeliveryDue],
    onFailure: async ({ event, error, step }) => {
      const deliveryId = Number((event.data.event.data as { deliveryId?: unknown }).deliveryId);
      if (!Number.isInteger(deliveryId)) return { marked: false };
      return step.run("mark-failed", () => markDeliveryGivenUp(deliveryId, error.message));
    },
  },
  async ({ event, step }) => {
    const deliveryId = event.data.deliveryId;
    return step.run("attempt", async () => {
      const result = await deliverOnce(await getDb(), deliveryId);
      if (result.outcome === "retry") {
        if (result.delayMs <= 0) throw new Error(`attempt ${result.attempt}: ${result.reason}`);
        throw new RetryAfterError(`attempt ${result.attempt}: ${result.reason}`, result.delayMs);
      }
      if (result.outcome === "nothing_to_do" && result.status === "missing") throw new NonRetriableError(`Delivery ${deliveryId} does not exist.`);
      return result;
    });
  },
);
