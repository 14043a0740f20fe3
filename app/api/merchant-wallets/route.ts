import { page, pageQuery, pageWindow } from "@/lib/http/pagination";
import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { createWallet } from "@/lib/wallets/create-wallet";
import { listWallets } from "@/lib/wallets/queries";
import { createWalletBody } from "@/lib/wallets/schemas";
import { serializeWallet } from "@/lib/wallets/serialize";

// GET /api/merchant-wallets/ – the merchant's receiving wallets, one per blockchain
export const GET = withApi({ route: "GET /api/merchant-wallets", query: pageQuery }, async ({ db, url, query, principal }) => {
  const { rows, count } = await listWallets(db, principal.merchantId, pageWindow(query));
  return page(url, query, count, rows.map(serializeWallet));
});

// POST /api/merchant-wallets/ – configure the receiving wallet for a blockchain
export const POST = withApi({ route: "POST /api/merchant-wallets", body: createWalletBody }, async ({ db, body, principal, clientIp }) => {
  const wallet = await createWallet(db, principal.merchantId, body, { kind: principal.kind, clientIp });
  await notifyDeliveriesDue();
  return created(serializeWallet(wallet));
});
