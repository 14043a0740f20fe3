"use server";

import { z } from "zod";
import { actionClientIp, authedAction } from "@/lib/auth/authed-action";
import { createWallet } from "@/lib/wallets/create-wallet";
import { createWalletBody, updateWalletBody } from "@/lib/wallets/schemas";
import { serializeWallet } from "@/lib/wallets/serialize";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { findWallet } from "@/lib/wallets/queries";
import { updateWallet } from "@/lib/wallets/update-wallet";
import { assertPasswordReentered } from "@/lib/wallets/wallet-events";
import { rowId } from "@/lib/http/schemas";

/** Form fields are text: numbers and the checkbox become what the API's schema expects. */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined);
  return { ...f, blockchain: num(f.blockchain), confirmation_threshold: num(f.confirmation_threshold), is_active: f.is_active === "on" || f.is_active === true };
};

const reentered = z.object({ password: z.string().max(256).optional() });

/** Same use-case as POST /api/merchant-wallets/, after the password is entered again (issue 13). */
export const addWalletAction = authedAction(z.preprocess(fromForm, createWalletBody.and(reentered)), async ({ password, ...input }, { db, merchantId }) => {
  await assertPasswordReentered(db, merchantId, password);
  const wallet = await createWallet(db, merchantId, input, { kind: "session", clientIp: await actionClientIp().catch(() => null) });
  await notifyDeliveriesDue();
  return serializeWallet(wallet);
});

/** Same use-case as PUT /api/merchant-wallets/{id}/; a new address needs the password entered again. */
export const updateWalletAction = authedAction(
  z.preprocess(fromForm, z.object({ id: rowId }).and(updateWalletBody).and(reentered)),
  async ({ id, password, ...changes }, { db, merchantId }) => {
    const current = await findWallet(db, merchantId, id);
    if (current && changes.wallet_address !== undefined && changes.wallet_address !== current.walletAddress) await assertPasswordReentered(db, merchantId, password);
    const wallet = await updateWallet(db, merchantId, id, changes, { kind: "session", clientIp: await actionClientIp().catch(() => null) });
    await notifyDeliveriesDue();
    return serializeWallet(wallet);
  },
);
