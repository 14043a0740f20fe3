"use server";

import { z } from "zod";
import { actionClientIp, authedAction } from "@/lib/auth/authed-action";
import { rowId } from "@/lib/http/schemas";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { createRefund } from "@/lib/refunds/create-refund";
import { createRefundBody } from "@/lib/refunds/schemas";
import { enterRefundAddress } from "@/lib/refunds/enter-refund-address";
import { typedAddress } from "@/lib/http/schemas";

const createRefundInput = z.intersection(z.object({ orderId: z.string().max(80) }), createRefundBody);

/** Same use-case as POST /api/webhook-deliveries/{id}/redeliver/. */
export const redeliverAction = authedAction(
  z.object({ id: rowId }),
  async ({ id }, { db, merchantId }) => {
    const delivery = await redeliverWebhook(db, merchantId, id);
    await notifyDeliveriesDue();
    return { id: delivery.id, status: delivery.status };
  },
  { permission: "manage_webhooks" },
);

/** Same use-case as POST /api/payment-orders/{order_id}/refunds/. */
export const createRefundAction = authedAction(
  createRefundInput,
  async ({ orderId, ...body }, { db, merchantId }) => {
    const refund = await createRefund(db, merchantId, orderId, body);
    return { id: refund.id, amount: refund.amount, transaction: refund.transaction };
  },
  { permission: "create_payments" },
);

const enterRefundAddressInput = z.object({
  orderId: z.string().max(80),
  refund_address: typedAddress,
  password: z.string().max(256).optional(),
  code: z.string().max(64).optional(),
});

/** Same use-case as PUT /api/payment-orders/{order_id}/refund-address/: the member's password (and second factor) again, audited. */
export const enterRefundAddressAction = authedAction(
  enterRefundAddressInput,
  async ({ orderId, refund_address, password, code }, { db, merchantId, userId, username }) => {
    const reauth = password ? { password, ...(code?.trim() ? { code: code.trim() } : {}) } : undefined;
    const clientIp = await actionClientIp().catch(() => null);
    const saved = await enterRefundAddress(
      db,
      merchantId,
      orderId,
      refund_address,
      { kind: "session", userId, username, clientIp, proofField: "password", proofCodeField: "code" },
      reauth,
    );
    return { refund_address: saved.refund_address };
  },
  { permission: "manage_wallets" },
);
