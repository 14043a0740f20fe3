import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { createWallet } from "@/lib/wallets/create-wallet";
import { listWallets } from "@/lib/wallets/queries";
import { walletRoutes } from "@/lib/wallets/routes";
import { serializeWallet } from "@/lib/wallets/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/merchant-wallets/ – the merchant's receiving wallets, one per blockchain
  GET: withApi(walletRoutes.listWallets, async ({ db, url, query, principal }) => {
    const { rows, count } = await listWallets(db, principal.merchantId, pageWindow(query));
    return page(url, query, count, rows.map(serializeWallet));
  }),

  // POST /api/merchant-wallets/ – configure the receiving wallet for a blockchain
  POST: withApi(walletRoutes.createWallet, async ({ db, body, principal, clientIp }) => {
    const wallet = await createWallet(db, principal.merchantId, body, {
      kind: principal.kind,
      clientIp,
      userId: principal.userId,
      signedInAt: principal.signedInAt,
    });
    await notifyDeliveriesDue();
    return created(serializeWallet(wallet));
  }),
});
