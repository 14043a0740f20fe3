import "server-only";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { pageWindow } from "@/lib/http/pagination";
import { listOrders as listOrderRows } from "./queries";
import type { ListOrdersQuery } from "./schemas";

/** A page of the merchant's orders, filtered and sorted as the query asks. */
export async function listOrders(db: DbOrTx, merchantId: number, query: ListOrdersQuery) {
  let blockchainId: number | undefined;
  if (query.blockchain !== undefined) {
    const chain = findBlockchainBySlug(query.blockchain);
    if (!chain) throw validationError({ blockchain: [`Unknown blockchain '${query.blockchain}'.`] });
    blockchainId = chain.id;
  }
  return listOrderRows(db, merchantId, { status: query.status, blockchainId, currency: query.currency, nonce: query.nonce }, query.ordering, pageWindow(query));
}
