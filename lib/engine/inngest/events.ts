import { eventType } from "inngest";
import { z } from "zod";

/** A webhook delivery is due: one run of `deliver-webhook` delivers it, retries included. */
export const webhookDeliveryDue = eventType("gateway/webhook.delivery-due", {
  schema: z.object({ deliveryId: z.number().int().positive() }),
});
