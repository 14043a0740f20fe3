"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createWallet } from "@/lib/wallets/create-wallet";
import { createWalletBody, updateWalletBody } from "@/lib/wallets/schemas";
import { serializeWallet } from "@/lib/wallets/serialize";
import { updateWallet } from "@/lib/wallets/update-wallet";

/** Form fields are text: numbers and the checkbox become what the API's schema expects. */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined);
  return { ...f, blockchain: num(f.blockchain), confirmation_threshold: num(f.confirmation_threshold), is_active: f.is_active === "on" || f.is_active === true };
};

/** Same use-case as POST /api/merchant-wallets/. */
export const addWalletAction = authedAction(z.preprocess(fromForm, createWalletBody), async (input, { db, merchantId }) =>
  serializeWallet(await createWallet(db, merchantId, input)),
);

/** Same use-case as PUT /api/merchant-wallets/{id}/. */
export const updateWalletAction = authedAction(
  z.preprocess(fromForm, z.object({ id: z.string().max(12) }).and(updateWalletBody)),
  async ({ id, ...changes }, { db, merchantId }) => serializeWallet(await updateWallet(db, merchantId, id, changes)),
);
