import "server-only";
import { isAddressEqual, type Address } from "viem";
import { recordAudit } from "@/lib/audit/record";
import { assertFreshProof } from "@/lib/auth/fresh-proof";
import type { ReauthProof } from "@/lib/auth/schemas";
import type { Db } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { parseOrderKey } from "@/lib/orders/get-order-or-throw";
import { findMerchantOrder, setOrderRefundAddress } from "@/lib/orders/queries";
import { isRefundable } from "./create-refund";
import { assertRefundDestination } from "./refund-destination";

/** Who enters a refund address for a customer (issue 52): a login, never an API key. */
export interface RefundAddressActor {
  kind: "access_token" | "api_key" | "session";
  /** The login whose password and second factor are asked (a member acting in an account). */
  userId: number | null;
  /** The member's name, kept on the order as who gave the address. */
  username: string;
  clientIp: string | null;
  /** Where a refused proof is reported: `reauth.password` / `reauth.code` (API), `password` / `code` (dashboard form). */
  proofField?: string;
  proofCodeField?: string;
}

/**
 * A member enters the customer's refund address after contact with them (a customer who paid from
 * an exchange cannot sign with the paying wallet). Where money goes, so as for a payout address: a
 * login with `manage_wallets` (owner or admin; the route and action check the role), never an API
 * key (403), a fresh proof of that login (password, and a second factor when it has one; wrong
 * guesses count toward the login throttle), the same destination rules and screening as every
 * refund, and an audit entry (`refund.address_entered`) with the address before and after, in the
 * same transaction. Refunds already built keep their own `to_address`.
 */
export async function enterRefundAddress(
  db: Db,
  merchantId: number,
  orderKey: string,
  address: string,
  actor: RefundAddressActor,
  proof: ReauthProof | undefined,
  now = new Date(),
) {
  if (actor.kind === "api_key") {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "Entering a customer's refund address needs a login (access token or dashboard), not an API key.");
  }
  const key = parseOrderKey(orderKey);
  const order = key ? await findMerchantOrder(db, merchantId, key) : null;
  if (!order) throw notFound("Payment order");
  const field = "refund_address";
  if (!isRefundable(order)) {
    throw new ApiError(
      "ORDER_NOT_REFUNDABLE",
      `Only confirmed orders and failed ones that were underpaid or paid late take a refund address; this order is ${order.status}.`,
    );
  }
  await assertFreshProof(db, actor.userId ?? merchantId, proof, actor.clientIp, {
    field: actor.proofField ?? "reauth.password",
    codeField: actor.proofCodeField ?? "reauth.code",
    now,
  });
  const destination = await assertRefundDestination(db, merchantId, address, field);
  if (isAddressEqual(destination, order.receivingAddress as Address)) {
    throw validationError({ [field]: ["Must be the customer's own address, not the order's deposit address."] });
  }
  const updated = await db.transaction(async (tx) => {
    const row = await setOrderRefundAddress(tx, order.id, destination, { source: "merchant", givenBy: actor.username }, now);
    await recordAudit(tx, {
      merchantId,
      action: "refund.address_entered",
      target: `order:${order.orderId}`,
      before: { refund_address: order.refundAddress, source: order.refundAddressSource ?? (order.refundAddressSignedBy ? "payer_signature" : null) },
      after: { refund_address: destination, source: "merchant" },
      now,
    });
    return row;
  });
  if (!updated) throw notFound("Payment order");
  return {
    order_id: updated.orderId,
    refund_address: updated.refundAddress!,
    refund_address_at: updated.refundAddressAt!.toISOString(),
    refund_address_source: "merchant" as const,
    refund_address_given_by: actor.username,
  };
}
