import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { walletRoutes } from "@/lib/wallets/routes";
import { serializeWallet } from "@/lib/wallets/serialize";
import { updateWallet } from "@/lib/wallets/update-wallet";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/merchant-wallets/{id}/ – change a wallet's address, confirmation threshold or active flag
  PUT: withApi(walletRoutes.updateWallet, async ({ db, params, body, principal, clientIp }) => {
    const wallet = await updateWallet(db, principal.merchantId, params.id, body, { kind: principal.kind, clientIp, userId: principal.userId });
    await notifyDeliveriesDue();
    return ok(serializeWallet(wallet));
  }),
});
