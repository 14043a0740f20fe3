import "server-only";
import type { Hex } from "viem";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { submitPermit } from "./charge";
import { recordSubscriptionAuthorized } from "./customer-mail";
import { getSubscriptionOrThrow, getSubscriptionView } from "./subscriptions";

/** The customer's permit, relayed by the merchant (or the hosted page): the contract is deployed with it. */
export async function authorizeSubscription(db: DbOrTx, merchantId: number, subscriptionId: string, permit: { signature: string; deadline: number }) {
  const { subscription } = await getSubscriptionOrThrow(db, merchantId, subscriptionId);
  await submitPermit(db, subscription, findBlockchainById(subscription.blockchainId)!, { signature: permit.signature as Hex, deadline: permit.deadline });
  await recordSubscriptionAuthorized(db, subscription);
  return getSubscriptionView(db, merchantId, subscriptionId);
}
