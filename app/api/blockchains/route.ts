import { listBlockchains } from "@/lib/chains/catalog";
import { chainRoutes } from "@/lib/chains/routes";
import { serializeBlockchain } from "@/lib/chains/serialize";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/blockchains/ – the networks this deployment serves, with their numeric ids for merchant wallets
  GET: withApi(chainRoutes.listBlockchains, async ({ url, query }) => {
    const chains = listBlockchains();
    const { limit, offset } = pageWindow(query);
    return page(url, query, chains.length, chains.slice(offset, offset + limit).map(serializeBlockchain));
  }),
});
