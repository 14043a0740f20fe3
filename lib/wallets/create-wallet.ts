import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { uniqueViolation } from "@/lib/db/errors";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { findWalletForChain, insertWallet } from "./queries";
import type { CreateWalletBody } from "./schemas";
import { assertMayAddPayoutWallet, assertMayChangeAddress, auditedWallet, recordWalletChange, type WalletActor } from "./wallet-events";

const alreadyConfigured = () =>
  validationError(
    { blockchain: ["A wallet for this blockchain already exists; update it with PUT /api/merchant-wallets/{id}/."] },
    "This blockchain already has a wallet.",
  );

/**
 * Adds the merchant's receiving wallet for one blockchain (one per blockchain per merchant). A new
 * payout address needs a login (not an API key) with a fresh proof (`assertMayAddPayoutWallet`),
 * and is recorded and announced (wallet.updated).
 */
export async function createWallet(db: DbOrTx, merchantId: number, input: CreateWalletBody, actor: WalletActor, now = new Date()) {
  assertMayChangeAddress(actor);
  const chain = findBlockchainById(input.blockchain);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain ${input.blockchain} is not supported; see GET /api/blockchains/.`);
  if (await findWalletForChain(db, merchantId, chain.id)) throw alreadyConfigured();
  await assertMayAddPayoutWallet(db, merchantId, actor, input.reauth, now);
  try {
    return await db.transaction(async (tx) => {
      const wallet = await insertWallet(tx, {
        merchantId,
        blockchainId: chain.id,
        walletAddress: input.wallet_address,
        confirmationThreshold: input.confirmation_threshold ?? chain.defaultConfirmations,
        isActive: input.is_active ?? true,
        createdAt: now,
        updatedAt: now,
      });
      await recordWalletChange(tx, wallet, { kind: "created", previousAddress: null }, actor, now);
      await recordAudit(tx, {
        merchantId,
        action: "wallet.created",
        target: `wallet:${wallet.id}`,
        after: auditedWallet(wallet),
        ip: actor.clientIp ?? undefined,
        now,
      });
      return wallet;
    });
  } catch (error) {
    // Lost a race with a concurrent POST for the same blockchain: the unique index decided.
    if (uniqueViolation(error)) throw alreadyConfigured();
    throw error;
  }
}
