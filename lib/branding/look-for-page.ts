import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { findOrderByPublicId } from "@/lib/orders/queries";
import { findActiveLink } from "@/lib/payment-links/queries";
import { storeLook, type StoreLook } from "./branding";

/** The look of the store an order's payment page (or receipt) belongs to; null for an unknown order. */
export async function storeLookForOrder(db: DbOrTx, orderId: string): Promise<StoreLook | null> {
  if (!/^ORD-[0-9A-Za-z]{1,64}$/.test(orderId)) return null;
  const order = await findOrderByPublicId(db, orderId);
  return order ? storeLook(db, order.merchantId) : null;
}

/** The look of the store a payment link belongs to; null for an unknown or closed link. */
export async function storeLookForLink(db: DbOrTx, linkId: string): Promise<StoreLook | null> {
  if (!/^LNK-[0-9A-Za-z]{1,64}$/.test(linkId)) return null;
  const found = await findActiveLink(db, linkId);
  return found ? storeLook(db, found.link.merchantId) : null;
}
