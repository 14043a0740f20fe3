import "server-only";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { pageWindow } from "@/lib/http/pagination";
import { findScannedHead } from "@/lib/chains/queries";
import { findMerchantTransaction, listMerchantTransactions } from "./queries";
import type { ListTransactionsQuery } from "./schemas";
import { serializeTransaction, serializeTransactionListItem } from "./serialize";

export async function listTransactions(db: DbOrTx, merchantId: number, query: ListTransactionsQuery) {
  let blockchainId: number | undefined;
  if (query.blockchain !== undefined) {
    const chain = findBlockchainBySlug(query.blockchain);
    if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Unknown blockchain '${query.blockchain}'.`);
    blockchainId = chain.id;
  }
  const { rows, count } = await listMerchantTransactions(db, merchantId, { blockchainId, status: query.status }, pageWindow(query));
  return { count, results: rows.map(serializeTransactionListItem) };
}

export async function getTransactionOrThrow(db: DbOrTx, merchantId: number, txHash: string) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw notFound("Transaction");
  const found = await findMerchantTransaction(db, merchantId, txHash);
  if (!found) throw notFound("Transaction");
  return serializeTransaction(found.transfer, found.order, await findScannedHead(db, found.transfer.blockchainId));
}
