import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { idParams } from "@/lib/http/schemas";
import { createWalletBody, updateWalletBody, walletJson } from "./schemas";

/** The merchant's receiving wallets. */
export const walletRoutes = {
  listWallets: defineRoute({
    method: "GET",
    path: "/api/merchant-wallets",
    access: "read",
    query: pageQuery,
    doc: { summary: "List merchant wallets", tags: ["Merchant wallets"], response: pageAnswer(walletJson) },
  }),
  createWallet: defineRoute({
    method: "POST",
    path: "/api/merchant-wallets",
    access: "manage_wallets",
    body: createWalletBody,
    doc: {
      summary: "Add a merchant wallet",
      description:
        "One wallet per blockchain; a second one for the same blockchain is 400 VALIDATION_ERROR. Needs a login (access token): an API key, even with manage_wallets, is 403. Recorded in the account's event log.",
      tags: ["Merchant wallets"],
      response: createdAnswer(walletJson),
      errors: ["INVALID_BLOCKCHAIN"],
    },
  }),
  updateWallet: defineRoute({
    method: "PUT",
    path: "/api/merchant-wallets/[id]",
    access: "manage_wallets",
    params: idParams,
    body: updateWalletBody,
    doc: {
      summary: "Update a merchant wallet",
      description:
        "Any subset of wallet_address, confirmation_threshold, is_active. Existing orders keep the wallet they were created with. Changing wallet_address needs a login (access token; an API key is 403) and a fresh proof of the owner in `reauth` ({ password }; missing or wrong: 400 VALIDATION_ERROR on reauth.password, and wrong guesses count toward the login throttle, 429), is recorded and is announced to every active webhook endpoint as wallet.updated.",
      tags: ["Merchant wallets"],
      response: okAnswer(walletJson),
    },
  }),
};
