import "server-only";
import { getAddress, type Address } from "viem";
import { findBlockchainById, findBlockchainBySlug, findToken, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import { assertTokenEnabled } from "@/lib/tokens/merchant-tokens";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import type { PaymentOrder } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { lockFiatPrice, type RateSource } from "@/lib/pricing/lock-price";
import { findWalletForChain } from "@/lib/wallets/queries";
import { formatAmount, parseAmount } from "@/lib/money/amounts";

/**
 * One (chain, token) method an order accepts, as stored in payment_orders.accepted_methods: what
 * the customer pays by it and where. Choosing it copies these onto the order's own columns.
 */
export interface AcceptedMethod {
  blockchainId: number;
  currency: string;
  /** null for the chain's native coin */
  tokenAddress: string | null;
  decimals: number;
  /** Base units. */
  amount: string;
  rate: string | null;
  rateSource: RateSource[] | null;
  receivingAddress: string;
  depositDestination: string;
  depositSalt: string;
  depositFactory: string;
  /** The factory's contract version (lib/chains/sweeper.ts sweeps version 2 in batches). */
  depositFactoryVersion: number;
  confirmationThreshold: number;
}

/** The methods an order accepts: its stored list, or the one method of its own columns (orders created with one currency and chain). */
export function acceptedMethodsOf(order: PaymentOrder): AcceptedMethod[] {
  const stored = order.acceptedMethods as AcceptedMethod[] | null;
  if (stored && stored.length > 0) return stored;
  return [
    {
      blockchainId: order.blockchainId,
      currency: order.currency,
      tokenAddress: order.tokenAddress,
      decimals: order.decimals,
      amount: order.amount,
      rate: order.rate,
      rateSource: (order.rateSource as RateSource[] | null) ?? null,
      receivingAddress: order.receivingAddress,
      depositDestination: order.depositDestination,
      depositSalt: order.depositSalt,
      depositFactory: order.depositFactory,
      depositFactoryVersion: order.depositFactoryVersion,
      confirmationThreshold: order.confirmationThreshold,
    },
  ];
}

export const sameToken = (a: string | null, b: string | null) => (a ?? null)?.toLowerCase() === (b ?? null)?.toLowerCase();

/** Whether `method` is the one the order's columns hold now. */
export function isCurrentMethod(
  order: Pick<PaymentOrder, "blockchainId" | "tokenAddress">,
  method: Pick<AcceptedMethod, "blockchainId" | "tokenAddress">,
): boolean {
  return order.blockchainId === method.blockchainId && sameToken(order.tokenAddress, method.tokenAddress);
}

/** The method of an order that money of `tokenAddress` sent to `address` on `blockchainId` pays; null: none it accepts. */
export function findAcceptedMethod(order: PaymentOrder, blockchainId: number, address: string, tokenAddress: string | null): AcceptedMethod | null {
  return (
    acceptedMethodsOf(order).find(
      (m) => m.blockchainId === blockchainId && m.receivingAddress.toLowerCase() === address.toLowerCase() && sameToken(m.tokenAddress, tokenAddress),
    ) ?? null
  );
}

/** Whether money has reached the order (any counted transfer or a state past pending): from then on its method is fixed. */
export function hasPaymentArrived(order: Pick<PaymentOrder, "status" | "amountReceived">): boolean {
  return order.status !== "pending" || BigInt(order.amountReceived) > 0n;
}

/** The accepted methods as the order JSON lists them (the first is the method the order was created with). */
export function serializeAcceptedMethods(order: PaymentOrder) {
  return acceptedMethodsOf(order).map((m) => ({
    blockchain: findBlockchainById(m.blockchainId)?.slug ?? null,
    currency: m.currency,
    amount: formatAmount(BigInt(m.amount), m.decimals),
    rate: m.rate,
    receiving_address: m.receivingAddress,
  }));
}

/** The method the customer paid by: the order's chain and token once money has arrived; null before. */
export function serializePaymentMethod(order: PaymentOrder) {
  if (!hasPaymentArrived(order) || (order.status === "expired" && BigInt(order.amountReceived) === 0n)) return null;
  return { blockchain: findBlockchainById(order.blockchainId)?.slug ?? null, currency: order.currency };
}

export interface MethodRequest {
  blockchain: string;
  currency: string;
}

export interface PrimaryMethod {
  chain: Blockchain;
  token: TokenInfo;
  /** Base units. */
  amount: bigint;
}

/** A method's chain and token from the catalog, with the create-order errors for either. */
function resolveChainToken(request: MethodRequest): { chain: Blockchain & { factory: Address; implementation: Address }; token: TokenInfo } {
  const chain = findBlockchainBySlug(request.blockchain);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain '${request.blockchain}' in accepted_methods is not supported; see GET /api/blockchains/.`);
  if (!chain.factory || !chain.implementation) {
    throw new ApiError("INVALID_BLOCKCHAIN", `Payments on ${chain.slug} are not available: no deposit-address factory is deployed or configured for it.`);
  }
  const token = findToken(chain, request.currency);
  if (!token) {
    const offered = chain.tokens.map((t) => t.symbol).join(", ");
    throw new ApiError("UNSUPPORTED_CURRENCY", `Currency '${request.currency}' in accepted_methods is not supported on ${chain.slug}; supported: ${offered}.`);
  }
  return { chain: chain as Blockchain & { factory: Address; implementation: Address }, token };
}

/**
 * The further methods of a new order (besides its own chain and currency, which come first and get
 * their deposit address in createOrder): each chain must have an active wallet of the merchant and
 * the token must be in the catalog on it. A token-priced order can offer its own token on other
 * chains (same amount); other tokens need a fiat price, converted per method at its chain's feeds
 * and locked like the order's own. One deposit address per chain, shared by that chain's tokens.
 */
export async function prepareExtraMethods(
  db: DbOrTx,
  merchantId: number,
  primary: PrimaryMethod,
  requests: MethodRequest[],
  fiat: { priceAmount: unknown; priceCurrency: string } | null,
  now: Date,
): Promise<AcceptedMethod[]> {
  const seen = new Set([`${primary.chain.id}:${primary.token.symbol}`]);
  const resolved = requests.map(resolveChainToken).filter(({ chain, token }) => {
    const key = `${chain.id}:${token.symbol}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (!fiat) {
    const other = resolved.find(({ token }) => token.symbol !== primary.token.symbol);
    if (other) {
      throw validationError({
        accepted_methods: [
          `An order priced in ${primary.token.symbol} can accept ${primary.token.symbol} on other chains only; price it in fiat (price_amount) to accept ${other.token.symbol} too.`,
        ],
      });
    }
  }
  for (const { chain, token } of resolved) await assertTokenEnabled(db, merchantId, chain, token, "Currency in accepted_methods");
  const deposits = new Map<
    number,
    Pick<AcceptedMethod, "receivingAddress" | "depositDestination" | "depositSalt" | "depositFactory" | "depositFactoryVersion" | "confirmationThreshold">
  >();
  const methods: AcceptedMethod[] = [];
  for (const { chain, token } of resolved) {
    let deposit = deposits.get(chain.id);
    if (!deposit && chain.id !== primary.chain.id) {
      const wallet = await findWalletForChain(db, merchantId, chain.id);
      if (!wallet || !wallet.isActive)
        throw new ApiError(
          "WALLET_NOT_CONFIGURED",
          `No active wallet is configured for ${chain.slug} (in accepted_methods); add one with POST /api/merchant-wallets/.`,
        );
      const destination = getAddress(wallet.walletAddress);
      // Its own salt per chain: on a sandbox all chains share one devnet, where one address would be seen by every chain's scanner.
      const salt = newOrderSalt();
      deposit = {
        receivingAddress: computeDepositAddress({ factory: chain.factory, implementation: chain.implementation, destination, salt }),
        depositDestination: destination,
        depositSalt: salt,
        depositFactory: chain.factory,
        depositFactoryVersion: chain.factoryVersion,
        confirmationThreshold: wallet.confirmationThreshold,
      };
      deposits.set(chain.id, deposit);
    }
    const locked = fiat ? await lockFiatPrice(chain, token, fiat.priceAmount, fiat.priceCurrency, now) : null;
    const amount = locked
      ? locked.amount
      : primary.token.decimals === token.decimals
        ? primary.amount
        : parseAmount(formatAmount(primary.amount, primary.token.decimals), token.decimals);
    methods.push({
      blockchainId: chain.id,
      currency: token.symbol,
      tokenAddress: token.address,
      decimals: token.decimals,
      amount: amount.toString(),
      rate: locked?.rate ?? null,
      rateSource: locked?.rateSource ?? null,
      // The order's own chain: filled in with the order's deposit address once it is known (createOrder).
      receivingAddress: deposit?.receivingAddress ?? "",
      depositDestination: deposit?.depositDestination ?? "",
      depositSalt: deposit?.depositSalt ?? "",
      depositFactory: deposit?.depositFactory ?? "",
      depositFactoryVersion: deposit?.depositFactoryVersion ?? 1,
      confirmationThreshold: deposit?.confirmationThreshold ?? 0,
    });
  }
  return methods;
}
