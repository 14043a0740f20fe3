"use server";

import { z } from "zod";
import { getAccountOrThrow, rotateAccountWebhookSecret, updateAccountSettings } from "@/lib/auth/account";
import { updateAccountBody } from "@/lib/auth/schemas";
import { authedAction } from "@/lib/auth/authed-action";

const anyId = z.object({ id: z.string().max(12) });

/** The account webhook secret (signs deliveries to orders' webhook_url), fetched only on request. */
export const revealAccountSecretAction = authedAction(anyId, async (_input, { db, merchantId }) => ({
  secret: (await getAccountOrThrow(db, merchantId)).webhookSecret,
}));

/** Same use-case as POST /api/account/rotate-webhook-secret/. */
export const rotateAccountSecretAction = authedAction(anyId, async (_input, { db, merchantId }) => ({
  secret: (await rotateAccountWebhookSecret(db, merchantId)).webhookSecret,
}));

const toleranceFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  return { payment_tolerance_bps: typeof f.payment_tolerance_bps === "string" && f.payment_tolerance_bps.trim() !== "" ? Number(f.payment_tolerance_bps) : f.payment_tolerance_bps };
};

/** Same use-case as PUT /api/account/. */
export const updateToleranceAction = authedAction(z.preprocess(toleranceFromForm, updateAccountBody), async (input, { db, merchantId }) => ({
  payment_tolerance_bps: (await updateAccountSettings(db, merchantId, input)).paymentToleranceBps,
}));
