import { defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { listTransactionsQuery, transactionJson, transactionListItemJson, transactionParams } from "./schemas";

/** Detected transfers. */
export const transactionRoutes = {
  listTransactions: defineRoute({
    method: "GET",
    path: "/api/transactions",
    access: "read",
    query: listTransactionsQuery,
    doc: {
      summary: "List transactions",
      description: "Transfers to the merchant's deposit addresses, newest first.",
      tags: ["Transactions"],
      response: pageAnswer(transactionListItemJson),
      errors: ["INVALID_BLOCKCHAIN"],
    },
  }),
  getTransaction: defineRoute({
    method: "GET",
    path: "/api/transactions/[transactionHash]",
    access: "read",
    params: transactionParams,
    doc: { summary: "Get a transaction", tags: ["Transactions"], response: okAnswer(transactionJson) },
  }),
};
