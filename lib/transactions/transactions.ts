import "server-only";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { keysetWindow } from "@/lib/http/pagination";
import { encodeCursor } from "@/lib/list-window";
import { findScannedHead } from "@/lib/chains/queries";
import { findMerchantTransaction, listMerchantTransactions, transactionSortKey } from "./queries";
import type { ListTransactionsQuery } from "./schemas";
import { serializeTransaction, serializeTransactionListItem } from "./serialize";

export async function listTransactions(db: DbOrTx, merchantId: number, query: ListTransactionsQuery) {
  let blockchainId: number | undefined;
  if (query.blockchain !== undefined) {
    const chain = findBlockchainBySlug(query.blockchain);
    if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Unknown blockchain '${query.blockchain}'.`);
    blockchainId = chain.id;
  }
  const window = keysetWindow(query, "-created_at", transactionSortKey.length);
  const { rows, count, nextKey } = await listMerchantTransactions(db, merchantId, { blockchainId, status: query.status }, window);
  const nextCursor = nextKey ? encodeCursor({ ordering: "-created_at", key: nextKey }) : null;
  return { count, results: rows.map(serializeTransactionListItem), nextCursor };
}

export async function getTransactionOrThrow(db: DbOrTx, merchantId: number, txHash: string) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw notFound("Transaction");
  const found = await findMerchantTransaction(db, merchantId, txHash);
  if (!found) throw notFound("Transaction");
  return serializeTransaction(found.transfer, found.order, await findScannedHead(db, found.transfer.blockchainId), found.charge);
}
