import "server-only";
import { secretRotationGraceMs } from "@/lib/auth/account";
import type { WebhookEndpoint } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
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
  const updated = await db.transaction(async (tx) => {
    const row = await updateEndpoint(tx, merchantId, endpoint.id, {
      secret: newId("webhookSecret"),
      previousSecret: endpoint.secret,
      previousSecretExpiresAt: new Date(now.getTime() + secretRotationGraceMs),
      updatedAt: now,
    });
    // The secrets themselves are never recorded: only that one was replaced and until when the old one signs.
    if (row)
      await recordAudit(tx, {
        merchantId,
        action: "webhook_endpoint.secret_rotated",
        target: `webhook_endpoint:${row.id}`,
        after: { url: row.url, previous_secret_expires_at: row.previousSecretExpiresAt?.toISOString() ?? null },
        now,
      });
    return row;
  });
  if (!updated) throw notFound("Webhook endpoint");
  return updated;
}
