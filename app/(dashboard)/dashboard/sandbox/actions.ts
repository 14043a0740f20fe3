"use server";

import { randomInt } from "node:crypto";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createOrder, serializeNewOrder } from "@/lib/orders/create-order";
import { createOrderBody } from "@/lib/orders/schemas";
import { dripFaucet, mine, payOrder, reorg } from "@/lib/sandbox/sandbox-tools";
import { faucetBody, mineBody, payOrderBody, reorgBody } from "@/lib/sandbox/schemas";

/** A test order from the form: a random nonce and order_info unless given. */
const orderFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  return {
    ...f,
    nonce: typeof f.nonce === "string" && f.nonce.trim() !== "" ? Number(f.nonce) : randomInt(1, 2 ** 47),
    order_info: f.order_info ?? '{"source":"dashboard sandbox"}',
  };
};

// Like their API routes, the sandbox tools answer NOT_FOUND in live mode (sandboxOnly).

/** Same use-case as POST /api/payment-orders/. */
export const createTestOrderAction = authedAction(
  z.preprocess(orderFromForm, createOrderBody),
  async (input, { db, merchantId }) => {
    const order = await serializeNewOrder(db, await createOrder(db, merchantId, input));
    return {
      order_id: order.order_id,
      amount: order.amount,
      currency: order.currency,
      blockchain: order.blockchain,
      receiving_address: order.receiving_address,
      payment_url: order.payment_url,
    };
  },
  { sandboxOnly: true, permission: "create_payments" },
);

/** Same use-case as POST /api/sandbox/payment-orders/{id}/pay/. */
export const payOrderAction = authedAction(
  z.object({ order_id: z.string().min(1).max(64) }).and(payOrderBody),
  async ({ order_id, ...body }, { db, merchantId }) => payOrder(db, merchantId, order_id, body),
  { sandboxOnly: true, permission: "create_payments" },
);

const numberFields = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  return { ...f, ...(typeof f.blocks === "string" && { blocks: Number(f.blocks) }), ...(typeof f.depth === "string" && { depth: Number(f.depth) }) };
};

/** Same use-case as POST /api/sandbox/mine/. */
export const mineAction = authedAction(z.preprocess(numberFields, mineBody), async (input, { db, merchantId }) => mine(db, merchantId, input), {
  sandboxOnly: true,
  permission: "create_payments",
});

/** Same use-case as POST /api/sandbox/faucet/. */
export const faucetAction = authedAction(faucetBody, async (input, { db, merchantId }) => dripFaucet(db, merchantId, input), {
  sandboxOnly: true,
  permission: "create_payments",
});

/** Same use-case as POST /api/sandbox/reorg/ (charged to the same mined-block budget). */
export const reorgAction = authedAction(z.preprocess(numberFields, reorgBody), async (input, { db, merchantId }) => reorg(db, merchantId, input), {
  sandboxOnly: true,
  permission: "create_payments",
});
