import "server-only";
import type { WebhookEndpoint } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { deleteEndpoint as deleteEndpointRow } from "./queries";

/** Deletes an endpoint; its deliveries and their log go with it. */
export async function deleteEndpoint(db: DbOrTx, merchantId: number, id: number): Promise<WebhookEndpoint> {
  const deleted = await deleteEndpointRow(db, merchantId, id);
  if (!deleted) throw notFound("Webhook endpoint");
  return deleted;
}
