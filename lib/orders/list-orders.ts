import "server-only";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { keysetWindow } from "@/lib/http/pagination";
import { encodeCursor } from "@/lib/list-window";
import { listOrders as listOrderRows, orderSortKeyWidth } from "./queries";
import type { ListOrdersQuery } from "./schemas";

/** A page of the merchant's orders, filtered and sorted as the query asks; `nextCursor` when there is a next page. */
export async function listOrders(db: DbOrTx, merchantId: number, query: ListOrdersQuery) {
  let blockchainId: number | undefined;
  if (query.blockchain !== undefined) {
    const chain = findBlockchainBySlug(query.blockchain);
    if (!chain) throw validationError({ blockchain: [`Unknown blockchain '${query.blockchain}'.`] });
    blockchainId = chain.id;
  }
  const ordering = `${query.ordering.descending ? "-" : ""}${query.ordering.field}`;
  const { rows, count, nextKey } = await listOrderRows(
    db,
    merchantId,
    { status: query.status, blockchainId, currency: query.currency, nonce: query.nonce },
    query.ordering,
    keysetWindow(query, ordering, orderSortKeyWidth(query.ordering.field)),
  );
  return { rows, count, nextCursor: nextKey ? encodeCursor({ ordering, key: nextKey }) : null };
}
