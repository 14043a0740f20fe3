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
 * Where a refund may go (issue 24): a customer's own address. Refused: the zero address, the
 * merchant's payout wallets, the gateway's contracts and every deposit address the gateway ever
 * gave out, of any merchant on any chain. Money sent to a deposit address is credited to that
 * order and swept back to a merchant, so such a "refund" would be confirmed while the customer
 * got nothing. Throws 400 VALIDATION_ERROR on `field`; an address that fails sanctions screening
 * (issue 56), 400 SANCTIONED_ADDRESS. Returns the address checksummed.
 */
export async function assertRefundDestination(db: DbOrTx, merchantId: number, address: string, field: string): Promise<Address> {
  const destination = getAddress(address);
  const refuse = (why: string) => validationError({ [field]: [`Must be the customer's own address, not ${why}.`] });
  if (isAddressEqual(destination, zeroAddress)) throw refuse("the zero address");
  if (gatewayContracts().some((contract) => isAddressEqual(contract, destination))) throw refuse("a contract of the gateway");
  if (await isMerchantWalletAddress(db, merchantId, destination)) throw refuse("one of the merchant's payout wallets");
  const chainIds = listBlockchains().map((chain) => chain.id);
  if (await isAnyOrderDepositAddress(db, chainIds, destination)) throw refuse("a deposit address of the gateway");
  await assertNotSanctioned(db, destination, field);
  return destination;
}
