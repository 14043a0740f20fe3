"use server";

import { randomInt } from "node:crypto";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createOrder, serializeNewOrder } from "@/lib/orders/create-order";
import { qrSvg } from "@/lib/orders/qr-code";
import { createOrderBody } from "@/lib/orders/schemas";

/**
 * An order from the dashboard form: empty fields are left out, the price goes to `amount` or, with
 * a fiat price currency, to `price_amount`; a random nonce and a default order_info unless given.
 */
const orderFromForm = (o: unknown) => {
  const f = Object.fromEntries(Object.entries((o ?? {}) as Record<string, unknown>).filter(([, v]) => v !== "" && v !== undefined));
  const { price, price_currency, ...rest } = f as Record<string, unknown>;
  const fiat = typeof price_currency === "string" && price_currency !== "token";
  return {
    ...rest,
    ...(fiat ? { price_amount: price, price_currency } : { amount: price ?? rest.amount }),
    nonce: typeof f.nonce === "string" ? Number(f.nonce) : randomInt(1, 2 ** 47),
    order_info: f.order_info ?? '{"source":"dashboard"}',
  };
};

/** Same use-case as POST /api/payment-orders/, in live and sandbox mode alike. */
export const createOrderAction = authedAction(
  z.preprocess(orderFromForm, createOrderBody),
  async (input, { db, merchantId }) => {
    const order = await serializeNewOrder(db, await createOrder(db, merchantId, input));
    return {
      order_id: order.order_id,
      amount: order.amount,
      currency: order.currency,
      blockchain: order.blockchain,
      price_amount: order.price_amount,
      price_currency: order.price_currency,
      rate: order.rate,
      payment_url: order.payment_url,
      qr_svg: await qrSvg(order.payment_url),
    };
  },
  { permission: "create_payments" },
);
