import "server-only";
import type { PaymentOrder } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { parseRowId } from "@/lib/http/schemas";
import { findMerchantOrder, findMerchantOrderView, type OrderView } from "./queries";

/** The path accepts the public order id (ORD-…) or the numeric id (DESIGN › API decisions). */
export function parseOrderKey(text: string): { orderId: string } | { id: number } | null {
  // Order ids are ORD- + base62; anything else (a NUL byte, say) never reaches the database.
  if (text.startsWith("ORD-")) return /^ORD-[A-Za-z0-9]{1,60}$/.test(text) ? { orderId: text } : null;
  const id = parseRowId(text);
  return id === null ? null : { id };
}

/** One of the merchant's orders; another merchant's order, or none, is 404. */
export async function getOrderOrThrow(db: DbOrTx, merchantId: number, key: string): Promise<PaymentOrder> {
  const parsed = parseOrderKey(key);
  const order = parsed ? await findMerchantOrder(db, merchantId, parsed) : null;
  if (!order) throw notFound("Payment order");
  return order;
}

/** The same, with the transfer and scanned head its response shows, in one statement. */
export async function getOrderViewOrThrow(db: DbOrTx, merchantId: number, key: string): Promise<OrderView> {
  const parsed = parseOrderKey(key);
  const view = parsed ? await findMerchantOrderView(db, merchantId, parsed) : null;
  if (!view) throw notFound("Payment order");
  return view;
}
