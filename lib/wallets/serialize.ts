import { findBlockchainById } from "@/lib/chains/catalog";
import type { MerchantWallet } from "@/lib/db/schema";

/** A merchant wallet as the API shows it (DESIGN › Shapes). */
export function serializeWallet(wallet: MerchantWallet) {
  return {
    id: wallet.id,
    blockchain: wallet.blockchainId,
    blockchain_slug: findBlockchainById(wallet.blockchainId)?.slug ?? null,
    wallet_address: wallet.walletAddress,
    confirmation_threshold: wallet.confirmationThreshold,
    is_active: wallet.isActive,
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
  };
}
export type WalletJson = ReturnType<typeof serializeWallet>;
