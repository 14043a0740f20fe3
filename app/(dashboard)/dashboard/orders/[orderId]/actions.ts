"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { rowId } from "@/lib/http/schemas";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { createRefund } from "@/lib/refunds/create-refund";
import { createRefundBody } from "@/lib/refunds/schemas";

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
