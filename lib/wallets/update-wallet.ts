import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { updateWallet as updateWalletRow } from "./queries";
import type { UpdateWalletBody } from "./schemas";

/** Path id → wallet id; anything but a positive int4 names no wallet. */
export function parseWalletId(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/**
 * Changes any of address, threshold and active flag. Orders already created keep the destination
 * and threshold they copied at creation; only new orders see the change.
 */
export async function updateWallet(db: DbOrTx, merchantId: number, idText: string, input: UpdateWalletBody, now = new Date()) {
  const id = parseWalletId(idText);
  const updated =
    id === null
      ? null
      : await updateWalletRow(db, merchantId, id, {
          ...(input.wallet_address !== undefined && { walletAddress: input.wallet_address }),
          ...(input.confirmation_threshold !== undefined && { confirmationThreshold: input.confirmation_threshold }),
          ...(input.is_active !== undefined && { isActive: input.is_active }),
          updatedAt: now,
        });
  if (!updated) throw notFound("Wallet");
  return updated;
}
