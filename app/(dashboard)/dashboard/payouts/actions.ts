"use server";

import { z } from "zod";
import { authedAction, type ActionContext } from "@/lib/auth/authed-action";
import { ApiError } from "@/lib/http/errors";
import { rowId, txHash } from "@/lib/http/schemas";
import type { PayoutActor } from "@/lib/payouts/actor";
import { approvePayout } from "@/lib/payouts/approve-payout";
import { cancelPayout } from "@/lib/payouts/cancel-payout";
import { recordPayoutTransaction } from "@/lib/payouts/record-payout-transaction";
import { createPayout } from "@/lib/payouts/save-payout";
import { createPayoutBody } from "@/lib/payouts/schemas";

const actorOf = (ctx: ActionContext): PayoutActor => ({
  merchantId: ctx.merchantId,
  kind: "session",
  username: ctx.username,
  userId: ctx.userId,
  role: ctx.role,
});

/** The form's fields: a pasted CSV, the chain and token, and the fiat the amounts are in ("token": none). */
const batchFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const [blockchain = "", currency = ""] = String(f.asset ?? "").split(":");
  const amountCurrency = typeof f.amount_currency === "string" && f.amount_currency !== "token" ? f.amount_currency : undefined;
  return { blockchain, currency, csv: f.csv, amount_currency: amountCurrency, note: f.note };
};

/** Same use-case as POST /api/payouts/; a refused CSV names every refused row in the message (the form shows no per-row fields). */
export const createPayoutAction = authedAction(
  z.preprocess(batchFromForm, createPayoutBody),
  async (input, ctx) => {
    try {
      const batch = await createPayout(ctx.db, actorOf(ctx), input);
      return { id: batch.id };
    } catch (error) {
      if (error instanceof ApiError && error.code === "VALIDATION_ERROR" && error.details) {
        const rows = Object.entries(error.details).map(([key, messages]) => `${key.replace(/^csv\.(\d+)\./, "line $1, ")}: ${messages.join(" ")}`);
        throw new ApiError(error.code, `${error.message} ${rows.join(" · ")}`, error.details);
      }
      throw error;
    }
  },
  { permission: "create_payments" },
);

/** Same use-case as POST /api/payouts/{id}/approve/ (owners and admins, not the batch's maker). */
export const approvePayoutAction = authedAction(z.object({ id: rowId }), async ({ id }, ctx) => ({ id: (await approvePayout(ctx.db, actorOf(ctx), id)).id }), {
  permission: "manage_account",
});

/** Same use-case as POST /api/payouts/{id}/cancel/. */
export const cancelPayoutAction = authedAction(z.object({ id: rowId }), async ({ id }, ctx) => ({ id: (await cancelPayout(ctx.db, actorOf(ctx), id)).id }), {
  permission: "create_payments",
});

/** Same use-case as POST /api/payouts/{id}/transaction/: the hash the browser wallet sent. */
export const reportPayoutTransactionAction = authedAction(
  z.object({ id: rowId, tx_hash: txHash }),
  async ({ id, tx_hash }, ctx) => ({ id: (await recordPayoutTransaction(ctx.db, actorOf(ctx), id, tx_hash)).id }),
  { permission: "create_payments" },
);
