import "server-only";
import type { WebhookEndpoint } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { deleteEndpoint as deleteEndpointRow } from "./queries";
import { auditedEndpoint } from "./serialize";

/** Deletes an endpoint; its deliveries and their log go with it. */
export async function deleteEndpoint(db: DbOrTx, merchantId: number, id: number, now = new Date()): Promise<WebhookEndpoint> {
  const deleted = await db.transaction(async (tx) => {
    const row = await deleteEndpointRow(tx, merchantId, id);
    if (row) await recordAudit(tx, { merchantId, action: "webhook_endpoint.deleted", target: `webhook_endpoint:${row.id}`, before: auditedEndpoint(row), now });
    return row;
  });
  if (!deleted) throw notFound("Webhook endpoint");
  return deleted;
}
