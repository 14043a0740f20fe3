import { listBlockchains } from "@/lib/chains/catalog";
import { page, pageQuery, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { serializeBlockchain } from "@/lib/chains/serialize";

// GET /api/blockchains/ – the networks this deployment serves, with their numeric ids for merchant wallets
export const GET = withApi({ route: "GET /api/blockchains", query: pageQuery }, async ({ url, query }) => {
  const chains = listBlockchains();
  const { limit, offset } = pageWindow(query);
  return page(url, query, chains.length, chains.slice(offset, offset + limit).map(serializeBlockchain));
});
