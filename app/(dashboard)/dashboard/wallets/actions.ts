"use server";

import { z } from "zod";
import { actionClientIp, authedAction } from "@/lib/auth/authed-action";
import { createWallet } from "@/lib/wallets/create-wallet";
import { createWalletBody, updateWalletBody } from "@/lib/wallets/schemas";
import { serializeWallet } from "@/lib/wallets/serialize";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { updateWallet } from "@/lib/wallets/update-wallet";
import { rowId } from "@/lib/http/schemas";

/** Form fields are text: numbers and the checkbox become what the API's schema expects. */
const fromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined);
  return {
    ...f,
    blockchain: num(f.blockchain),
    confirmation_threshold: num(f.confirmation_threshold),
    is_active: f.is_active === "on" || f.is_active === true,
  };
};

const reentered = z.object({ password: z.string().max(256).optional(), code: z.string().max(64).optional() });
const proofOf = (password?: string, code?: string) => (password ? { password, ...(code?.trim() ? { code: code.trim() } : {}) } : undefined);

/** Same use-case as POST /api/merchant-wallets/, after the password is entered again (issue 13). */
export const addWalletAction = authedAction(
  z.preprocess(fromForm, createWalletBody.omit({ reauth: true }).and(reentered)),
  async ({ password, code, ...input }, { db, merchantId, userId }) => {
    const clientIp = await actionClientIp().catch(() => null);
    const wallet = await createWallet(
      db,
      merchantId,
      { ...input, reauth: proofOf(password, code) },
      { kind: "session", clientIp, proofField: "password", proofCodeField: "code", userId },
    );
    await notifyDeliveriesDue();
    return serializeWallet(wallet);
  },
  { permission: "manage_wallets" },
);

/** Same use-case as PUT /api/merchant-wallets/{id}/, which asks for the password when the address changes. */
export const updateWalletAction = authedAction(
  z.preprocess(fromForm, z.object({ id: rowId }).and(updateWalletBody).and(reentered)),
  async ({ id, password, code, ...changes }, { db, merchantId, userId }) => {
    const reauth = proofOf(password, code);
    const wallet = await updateWallet(
      db,
      merchantId,
      id,
      { ...changes, reauth },
      { kind: "session", clientIp: await actionClientIp().catch(() => null), proofField: "password", proofCodeField: "code", userId },
    );
    await notifyDeliveriesDue();
    return serializeWallet(wallet);
  },
  { permission: "manage_wallets" },
);
