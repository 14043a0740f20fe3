import "server-only";
import { getAddress, isAddressEqual, zeroAddress, type Address } from "viem";
import { devnetContracts, listBlockchains } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import { isAnyOrderDepositAddress } from "@/lib/orders/queries";
import { assertNotSanctioned } from "@/lib/screening/screen-address";
import { isMerchantWalletAddress } from "@/lib/wallets/queries";

/** Contracts of the gateway itself on any chain: deposit factories and implementations, and the catalog's tokens. */
function gatewayContracts(): Address[] {
  const out: Address[] = [];
  for (const chain of listBlockchains()) {
    if (chain.factory) out.push(chain.factory);
    if (chain.implementation) out.push(chain.implementation);
    // The sandbox's first factory still sweeps the orders made with it.
    if (chain.isDevnet) out.push(devnetContracts.factory, devnetContracts.implementation);
    for (const token of chain.tokens) if (token.address) out.push(token.address as Address);
  }
  return out;
}

/**
 * Why money must not go to `address`, or null when it may: the zero address, a contract of the
 * gateway, one of the merchant's payout wallets, or a deposit address the gateway ever gave out, of
 * any merchant on any chain. Money sent to a deposit address is credited to that order and swept
 * back to a merchant, so such a refund or payout would be confirmed while its recipient got nothing.
 * Refunds and payouts (lib/payouts) both ask it.
 */
export async function outsideDestinationProblem(db: DbOrTx, merchantId: number, destination: Address): Promise<string | null> {
  if (isAddressEqual(destination, zeroAddress)) return "the zero address";
  if (gatewayContracts().some((contract) => isAddressEqual(contract, destination))) return "a contract of the gateway";
  if (await isMerchantWalletAddress(db, merchantId, destination)) return "one of the merchant's payout wallets";
  const chainIds = listBlockchains().map((chain) => chain.id);
  if (await isAnyOrderDepositAddress(db, chainIds, destination)) return "a deposit address of the gateway";
  return null;
}

/**
 * Where a refund may go (issue 24): a customer's own address, by `outsideDestinationProblem`.
 * Throws 400 VALIDATION_ERROR on `field`; an address that fails sanctions screening, 400
 * SANCTIONED_ADDRESS. Returns the address checksummed.
 */
export async function assertRefundDestination(db: DbOrTx, merchantId: number, address: string, field: string): Promise<Address> {
  const destination = getAddress(address);
  const problem = await outsideDestinationProblem(db, merchantId, destination);
  if (problem) throw validationError({ [field]: [`Must be the customer's own address, not ${problem}.`] });
  await assertNotSanctioned(db, destination, field);
  return destination;
}
