import "server-only";
import type { WebhookEndpoint } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { findEndpoint } from "./queries";

/** One of the merchant's endpoints; another merchant's, or none, is 404. */
export async function getEndpointOrThrow(db: DbOrTx, merchantId: number, id: number): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(db, merchantId, id);
  if (!endpoint) throw notFound("Webhook endpoint");
  return endpoint;
}
