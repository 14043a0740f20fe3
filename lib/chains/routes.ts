import { defineRoute, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { blockchainJson } from "./schemas";

/** The network catalog. */
export const chainRoutes = {
  listBlockchains: defineRoute({
    method: "GET",
    path: "/api/blockchains",
    access: "read",
    query: pageQuery,
    doc: {
      summary: "List blockchains",
      description: "Networks with their numeric ids (for wallets), slugs (for orders), confirmations and tokens.",
      tags: ["Blockchains"],
      response: pageAnswer(blockchainJson),
    },
  }),
};
