import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { updateWalletBody, walletParams } from "@/lib/wallets/schemas";
import { serializeWallet } from "@/lib/wallets/serialize";
import { updateWallet } from "@/lib/wallets/update-wallet";

// PUT /api/merchant-wallets/{id}/ – change a wallet's address, confirmation threshold or active flag
export const PUT = withApi(
  { route: "PUT /api/merchant-wallets/[id]", params: walletParams, body: updateWalletBody },
  async ({ db, params, body, principal, clientIp }) => {
    const wallet = await updateWallet(db, principal.merchantId, params.id, body, { kind: principal.kind, clientIp });
    await notifyDeliveriesDue();
    return ok(serializeWallet(wallet));
  },
);
