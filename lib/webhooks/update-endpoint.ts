import "server-only";
import type { WebhookEndpoint } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { checkEndpointUrl } from "./check-endpoint-url";
import { getEndpointOrThrow } from "./get-endpoint-or-throw";
import { updateEndpoint as updateEndpointRow } from "./queries";
import { auditedEndpoint } from "./serialize";
import type { UpdateEndpointBody } from "./schemas";

/**
 * Changes any of url, events, description, is_active. Turning an endpoint back on clears the
 * reason it was disabled for; pending retries follow the new URL.
 */
export async function updateEndpoint(db: DbOrTx, merchantId: number, id: number, input: UpdateEndpointBody, now = new Date()): Promise<WebhookEndpoint> {
  const existing = await getEndpointOrThrow(db, merchantId, id);
  const url = input.url !== undefined ? await checkEndpointUrl(input.url) : undefined;
  const updated = await db.transaction(async (tx) => {
    const row = await updateEndpointRow(tx, merchantId, existing.id, {
      ...(url !== undefined && { url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.is_active !== undefined && { isActive: input.is_active }),
      ...(input.is_active === true && { disabledReason: null }),
      updatedAt: now,
    });
    if (row)
      await recordAudit(tx, {
        merchantId,
        action: "webhook_endpoint.updated",
        target: `webhook_endpoint:${row.id}`,
        before: auditedEndpoint(existing),
        after: auditedEndpoint(row),
        now,
      });
    return row;
  });
  if (!updated) throw notFound("Webhook endpoint");
  return updated;
}
