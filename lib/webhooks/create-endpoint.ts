import "server-only";
import { assertFreshSecondFactor } from "@/lib/auth/second-factor";
import type { WebhookEndpoint } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { checkEndpointUrl } from "./check-endpoint-url";
import { countEndpoints, insertEndpoint } from "./queries";
import { auditedEndpoint } from "./serialize";
import type { CreateEndpointBody } from "./schemas";

/** 20 endpoints per merchant bounds the fan-out of every event (Stripe allows 16). */
export const maxEndpointsPerMerchant = 20;

/**
 * Creates an endpoint with a fresh `whsec_` secret (32 random bytes), shown in this response only.
 * An account with a second factor gives a fresh code in `reauth.code` (issue 28): an endpoint
 * receives every payment's details.
 */
export async function createEndpoint(
  db: DbOrTx,
  merchantId: number,
  input: CreateEndpointBody,
  now = new Date(),
  /** `userId`: the login whose second factor is asked (a member acting in the account); default: the account's own login. */
  { codeField = "reauth.code", userId }: { codeField?: string; userId?: number | null } = {},
): Promise<WebhookEndpoint> {
  const url = await checkEndpointUrl(input.url);
  await assertFreshSecondFactor(db, userId ?? merchantId, input.reauth?.code, { field: codeField, now, passkey: input.reauth?.passkey });
  if ((await countEndpoints(db, merchantId)) >= maxEndpointsPerMerchant) {
    throw validationError({ non_field_errors: [`A merchant can have at most ${maxEndpointsPerMerchant} webhook endpoints.`] });
  }
  return db.transaction(async (tx) => {
    const endpoint = await insertEndpoint(tx, {
      merchantId,
      url,
      events: input.events ?? [],
      description: input.description ?? null,
      isActive: input.is_active ?? true,
      secret: newId("webhookSecret"),
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, { merchantId, action: "webhook_endpoint.created", target: `webhook_endpoint:${endpoint.id}`, after: auditedEndpoint(endpoint), now });
    return endpoint;
  });
}
