import type { Address } from "viem";
import { devnetContracts, type Blockchain } from "@/lib/chains/catalog";

/**
 * The SubscriptionFactory subscriptions on `chain` are deployed through: the devnet's, deployed with
 * the gateway contracts; none on other chains until one is deployed and configured there.
 */
export function subscriptionFactoryFor(chain: Blockchain): Address | null {
  return chain.isDevnet ? devnetContracts.subscriptionFactory : null;
}
