import "server-only";
import { secretRotationGraceMs } from "@/lib/auth/account";
import type { WebhookEndpoint } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { getEndpointOrThrow } from "./get-endpoint-or-throw";
import { updateEndpoint } from "./queries";

/**
 * A new secret for the endpoint. The old one keeps signing too for 24 hours (both signatures in
 * `webhook-signature`), so the receiver can switch without dropping deliveries.
 */
export async function rotateEndpointSecret(db: DbOrTx, merchantId: number, id: number, now = new Date()): Promise<WebhookEndpoint> {
  const endpoint = await getEndpointOrThrow(db, merchantId, id);
  const updated = await updateEndpoint(db, merchantId, endpoint.id, {
    secret: newId("webhookSecret"),
    previousSecret: endpoint.secret,
    previousSecretExpiresAt: new Date(now.getTime() + secretRotationGraceMs),
    updatedAt: now,
  });
  if (!updated) throw notFound("Webhook endpoint");
  return updated;
}
