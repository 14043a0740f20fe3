import "server-only";
import { balancesPerCall } from "@/lib/chains/balances";
import type { Blockchain } from "@/lib/chains/catalog";
import type { NativeWatch } from "@/lib/chains/scanner";
import type { Db } from "@/lib/db/types";
import { findOpenNativeAddresses } from "@/lib/orders/queries";
import { hasRequestedNativeRefunds } from "@/lib/refunds/queries";

/** Most deposit addresses whose balances the scanner reads per chunk (three eth_calls); beyond, whole blocks cost less. */
export const maxWatchedBalances = 3 * balancesPerCall;

/**
 * Where the scanner must look for native coin on a chain (docs/design/chain-engine.md › What the
 * scanner reads): nowhere while no native-coin order is open (no block is read whole); the
 * balances of the open ones' deposit addresses while there are at most `maxWatchedBalances`; whole
 * blocks when there are more, or while a native refund is awaited (it goes to the customer's own
 * address, whose balance moves for reasons of its own). Coin sent to a token order's address is
 * therefore not seen (as a token sent to a native order's is not: logs are read for the catalog's
 * tokens, balances for native orders).
 */
export async function nativeWatch(db: Db, chain: Blockchain): Promise<NativeWatch> {
  if (await hasRequestedNativeRefunds(db, chain.id)) return { addresses: [], wholeBlocks: true };
  const addresses = await findOpenNativeAddresses(db, chain.id, maxWatchedBalances);
  if (addresses.length > maxWatchedBalances) return { addresses: [], wholeBlocks: true };
  return { addresses, wholeBlocks: false };
}
