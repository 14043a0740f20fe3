import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { noticePayoutAddressChanged } from "@/lib/mail/account-emails";
import { findWallet, updateWallet as updateWalletRow } from "./queries";
import { assertMayRedirectPayouts, auditedWallet, recordWalletChange, type WalletActor } from "./wallet-events";
import type { UpdateWalletBody } from "./schemas";

/**
 * Changes any of address, threshold and active flag. Orders already created keep the destination
 * and threshold they copied at creation; only new orders see the change. A new payout address
 * needs a login (not an API key) and a fresh proof (`reauth`, the password), whoever calls, and is recorded and announced (wallet.updated) in the same
 * transaction, then mailed to the owner.
 */
export async function updateWallet(db: DbOrTx, merchantId: number, id: number, input: UpdateWalletBody, actor: WalletActor, now = new Date()) {
  const current = await findWallet(db, merchantId, id);
  if (!current) throw notFound("Wallet");
  const addressChanges = input.wallet_address !== undefined && input.wallet_address !== current.walletAddress;
  if (addressChanges) await assertMayRedirectPayouts(db, merchantId, actor, input.reauth);
  const updated = await db.transaction(async (tx) => {
    const row = await updateWalletRow(tx, merchantId, current.id, {
      ...(input.wallet_address !== undefined && { walletAddress: input.wallet_address }),
      ...(input.confirmation_threshold !== undefined && { confirmationThreshold: input.confirmation_threshold }),
      ...(input.is_active !== undefined && { isActive: input.is_active }),
      updatedAt: now,
    });
    if (row && addressChanges) await recordWalletChange(tx, row, { kind: "address_changed", previousAddress: current.walletAddress }, actor, now);
    if (row)
      await recordAudit(tx, {
        merchantId,
        action: "wallet.updated",
        target: `wallet:${row.id}`,
        before: auditedWallet(current),
        after: auditedWallet(row),
        ip: actor.clientIp ?? undefined,
        now,
      });
    return row;
  });
  if (!updated) throw notFound("Wallet");
  if (addressChanges) await noticePayoutAddressChanged(db, updated, current.walletAddress, actor.clientIp, now);
  return updated;
}
