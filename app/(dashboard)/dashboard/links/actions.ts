"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createLink, deleteLink, serializeLink } from "@/lib/payment-links/payment-links";
import { createLinkBody } from "@/lib/payment-links/schemas";
import { qrSvg } from "@/lib/orders/qr-code";

/**
 * A link from the dashboard form: `options` are checkbox values "<blockchain>:<currency>"; the price
 * goes to `amount` (priced in the token) or `price_amount` with a fiat `price_currency`.
 */
const linkFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const picked = Array.isArray(f.options) ? f.options : typeof f.options === "string" ? [f.options] : [];
  const fiat = typeof f.price_currency === "string" && f.price_currency !== "token";
  return {
    title: f.title,
    ...(fiat ? { price_amount: f.price, price_currency: f.price_currency } : { amount: f.price }),
    options: picked.map((value) => {
      const [blockchain = "", currency = ""] = String(value).split(":");
      return { blockchain, currency };
    }),
    max_quantity: typeof f.max_quantity === "string" && f.max_quantity !== "" ? Number(f.max_quantity) : 1,
  };
};

/** Same use-case as POST /api/payment-links/. */
export const createLinkAction = authedAction(
  z.preprocess(linkFromForm, createLinkBody),
  async (input, { db, merchantId }) => {
    const link = serializeLink(await createLink(db, merchantId, input));
    return { id: link.id, title: link.title, url: link.url, qr_svg: await qrSvg(link.url) };
  },
  { permission: "create_payments" },
);

/** Same use-case as DELETE /api/payment-links/{id}/. */
export const deleteLinkAction = authedAction(
  z.object({ id: z.string().min(1).max(64) }),
  async ({ id }, { db, merchantId }) => {
    await deleteLink(db, merchantId, id);
    return { id };
  },
  { permission: "create_payments" },
);
