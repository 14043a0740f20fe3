import "server-only";
import { decodeEventLog, erc20Abi, getAddress, parseAbi, type Address, type Hex } from "viem";
import { publicBrand, storeLook } from "@/lib/branding/branding";
import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import type { CustomerLocale } from "@/lib/i18n/locales";
import { log } from "@/lib/log";
import { submitPermit } from "./charge";
import { recordSubscriptionAuthorized } from "./customer-mail";
import { setSubscriptionLocaleIfUnset } from "./mail-queries";
import { findSubscriptionForCustomer } from "./hosted-queries";
import { manageUrl, subscriptionIdOfManageToken, subscriptionIdPattern } from "./manage-link";
import { listSubscriptionEvents } from "./queries";
import { serializeSubscription } from "./serialize";
import { changeSubscription } from "./subscriptions";

export { manageToken, manageUrl, subscriptionIdOfManageToken } from "./manage-link";

/**
 * The customer's side of a subscription (docs/design/subscriptions.md › The customer's pages): the
 * hosted subscribe page, public by the subscription's unguessable id, where the customer grants
 * the allowance; and the manage page, reached by a capability link handed out only once the
 * customer's wallet has granted it, where they see the subscription and cancel it.
 */

/** How long a permit the page asks for stays valid. */
const permitLifetimeSeconds = 24 * 3600;

const tokenAbi = parseAbi([
  "function nonces(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
]);

async function findOrThrow(db: DbOrTx, subscriptionId: string) {
  const found = subscriptionIdPattern.test(subscriptionId) ? await findSubscriptionForCustomer(db, subscriptionId) : null;
  if (!found) throw notFound("Subscription");
  return found;
}

type Found = NonNullable<Awaited<ReturnType<typeof findSubscriptionForCustomer>>>;

/** What the customer agreed to (or is asked to): the terms, the store, and whether the allowance is in place. */
async function customerView(db: DbOrTx, found: Found) {
  const { subscription } = found;
  const chain = findBlockchainById(subscription.blockchainId);
  const view = serializeSubscription(subscription, found.planId);
  const look = await storeLook(db, subscription.merchantId);
  return {
    id: view.id,
    status: view.status,
    plan_name: found.planName,
    shop_name: look?.name ?? found.shopName,
    brand: publicBrand(look),
    blockchain: { slug: view.blockchain, name: chain?.name ?? view.blockchain, chain_id: chain?.chainId ?? null },
    currency: view.currency,
    max_amount: view.max_amount,
    interval_days: view.interval_days,
    trial_days: found.trialDays,
    periods: found.periods,
    starts_at: view.starts_at,
    ends_at: view.ends_at,
    customer_address: view.customer_address,
    pull_address: view.pull_address,
    authorization: view.authorization,
    periods_charged: view.periods_charged,
    canceled_at: view.canceled_at,
  };
}

/** Whether the customer has authorized the subscription (recorded, or an allowance of at least one period); the permit to sign when not. */
async function allowanceState(found: Found, now: Date) {
  const { subscription } = found;
  const chain = findBlockchainById(subscription.blockchainId);
  const token = chain ? findToken(chain, serializeSubscription(subscription, found.planId).currency) : null;
  if (!chain) return { authorized: false, permit: null };
  const owner = subscription.subscriberAddress as Address;
  const spender = subscription.pullAddress as Address;
  try {
    // Inside: a chain without a reachable RPC (none configured) leaves the page up, asking for the approve.
    const client = chainClient(chain);
    const [allowance, block] = await Promise.all([
      client.readContract({ address: subscription.tokenAddress as Address, abi: tokenAbi, functionName: "allowance", args: [owner, spender] }),
      client.getBlock(),
    ]);
    // Authorized once recorded so (a permit relayed, an approval seen, a charge made), or while an allowance of a
    // period stands. The contract's code alone says nothing: it is deployed only for an allowance (lib/subscriptions/charge.ts).
    const authorized = !!subscription.authorizedAt || allowance >= BigInt(subscription.maxAmountPerPeriod);
    if (authorized || !token?.eip3009) return { authorized, permit: null };
    const nonce = await client.readContract({ address: subscription.tokenAddress as Address, abi: tokenAbi, functionName: "nonces", args: [owner] });
    // The chain's clock decides the deadline (a devnet's may run ahead of the wall clock).
    const deadline = Math.max(Math.floor(now.getTime() / 1000), Number(block.timestamp)) + permitLifetimeSeconds;
    return {
      authorized,
      permit: {
        domain: { name: token.eip3009.name, version: token.eip3009.version, chainId: chain.chainId, verifyingContract: subscription.tokenAddress },
        message: {
          owner,
          spender,
          value: serializeSubscription(subscription, found.planId).authorization.value,
          nonce: nonce.toString(),
          deadline: String(deadline),
        },
      },
    };
  } catch (error) {
    log.warn("subscription allowance read failed", { subscription: subscription.subscriptionId, error: String(error) });
    return { authorized: false, permit: null };
  }
}

/** What the hosted subscribe page /subscribe/{id} shows: public by the subscription's unguessable id. */
export async function getHostedSubscriptionView(db: DbOrTx, subscriptionId: string, now = new Date()) {
  const found = await findOrThrow(db, subscriptionId);
  return { ...(await customerView(db, found)), ...(await allowanceState(found, now)) };
}

/**
 * The hosted page relays the customer's permit. Public: the permit itself is the proof (the token
 * checks it is the subscriber's signature for the recorded pull address and value, and the contract
 * carries the terms recorded when the merchant created the subscription: nothing a caller sends
 * changes them), and the gateway sends it once per subscription. The page's language becomes the
 * customer's for their mail, unless the store set one. Answers the manage link.
 */
export async function authorizeHostedSubscription(
  db: DbOrTx,
  subscriptionId: string,
  permit: { signature: string; deadline: number },
  locale: CustomerLocale | null = null,
) {
  const { subscription } = await findOrThrow(db, subscriptionId);
  if (serializeSubscription(subscription, "").authorization.method !== "permit")
    throw new ApiError("CONFLICT", "This subscription's token has no permit: the customer's wallet sends an approve.");
  const chain = findBlockchainById(subscription.blockchainId);
  if (!chain) throw new ApiError("CONFLICT", "Subscriptions are not available on this blockchain now.");
  await submitPermit(db, subscription, chain, { signature: permit.signature as Hex, deadline: permit.deadline });
  if (locale) await setSubscriptionLocaleIfUnset(db, subscription.id, locale);
  await recordSubscriptionAuthorized(db, subscription);
  return { id: subscriptionId, manage_url: manageUrl(subscriptionId) };
}

/**
 * After the customer's wallet sent the approve itself: the manage link, once the transaction is
 * mined, sent by the subscriber, and approved the subscription's pull contract on its token.
 */
export async function confirmHostedApproval(db: DbOrTx, subscriptionId: string, transactionHash: string, locale: CustomerLocale | null = null) {
  const { subscription } = await findOrThrow(db, subscriptionId);
  const chain = findBlockchainById(subscription.blockchainId);
  if (!chain) throw new ApiError("CONFLICT", "Subscriptions are not available on this blockchain now.");
  const refused = () => validationError({ transaction_hash: ["Not an approve of this subscription's contract by its customer's wallet."] });
  let receipt;
  try {
    receipt = await chainClient(chain).getTransactionReceipt({ hash: transactionHash as Hex });
  } catch {
    throw validationError({ transaction_hash: ["No mined transaction with this hash yet."] });
  }
  if (receipt.status !== "success" || getAddress(receipt.from) !== getAddress(subscription.subscriberAddress)) throw refused();
  const approves = receipt.logs.some((entry) => {
    if (getAddress(entry.address) !== getAddress(subscription.tokenAddress)) return false;
    try {
      const event = decodeEventLog({ abi: erc20Abi, data: entry.data, topics: entry.topics });
      return (
        event.eventName === "Approval" &&
        getAddress(event.args.owner) === getAddress(subscription.subscriberAddress) &&
        getAddress(event.args.spender) === getAddress(subscription.pullAddress) &&
        event.args.value >= BigInt(subscription.maxAmountPerPeriod)
      );
    } catch {
      return false;
    }
  });
  if (!approves) throw refused();
  if (locale) await setSubscriptionLocaleIfUnset(db, subscription.id, locale);
  await recordSubscriptionAuthorized(db, subscription);
  return { id: subscriptionId, manage_url: manageUrl(subscriptionId) };
}

async function findByManageToken(db: DbOrTx, token: string) {
  const subscriptionId = subscriptionIdOfManageToken(token);
  if (!subscriptionId) throw notFound("Subscription");
  return findOrThrow(db, subscriptionId);
}

/** The manage page: the subscription its token names, with its history (charges, failures, changes). */
export async function getManagedSubscription(db: DbOrTx, token: string) {
  const found = await findByManageToken(db, token);
  const history = await listSubscriptionEvents(db, found.subscription.merchantId, found.subscription.id);
  return {
    ...(await customerView(db, found)),
    history: history.map((event) => ({ kind: event.kind, status: event.status, created_at: event.createdAt.toISOString() })),
  };
}

/** The customer cancels from the manage page: the merchant's cancel, with "customer" as the actor in the history and audit log. */
export async function cancelManagedSubscription(db: DbOrTx, token: string, now = new Date()) {
  const found = await findByManageToken(db, token);
  await changeSubscription(db, found.subscription.merchantId, found.subscription.subscriptionId, "cancel", null, now, "customer");
  return getManagedSubscription(db, token);
}
