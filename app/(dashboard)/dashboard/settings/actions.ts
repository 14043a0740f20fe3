"use server";

import { z } from "zod";
import { getAccountOrThrow, rotateAccountWebhookSecret } from "@/lib/auth/account";
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
