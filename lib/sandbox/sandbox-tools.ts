import "server-only";
import { getAddress, isAddress, type Hex } from "viem";
import { findBlockchainById, findBlockchainBySlug, findToken, listBlockchains, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import { merchantSweepHashesAmong } from "@/lib/chains/queries";
import type { PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { kick, taskNames } from "@/lib/jobs/kick";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { getOrderOrThrow } from "@/lib/orders/get-order-or-throw";
import { merchantDepositAddressesAmong } from "@/lib/orders/queries";
import { merchantWalletAddressesAmong } from "@/lib/wallets/queries";
import type { ReplacedTransaction } from "./devnet-snapshots";
import { devnetCall, faucet, mineBlocks, reorgBlocks, sendFromFaucet } from "./devnet-tools";
import type { FaucetBody, MineBody, PayOrderBody, ReorgBody } from "./schemas";
import { assertFaucetAmount, spendFaucetSend, spendMinedBlocks } from "./usage-limits";

function chainBySlugOrThrow(slug: string): Blockchain {
  const chain = findBlockchainBySlug(slug);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Unknown blockchain '${slug}'.`);
  return chain;
}

/**
 * POST /api/sandbox/payment-orders/{id}/pay/: a real devnet transfer from the faucet to the order's
 * deposit address. Without an amount it pays what is still missing (all of it in another asset).
 * Every tool here charges the merchant's hourly devnet budget itself, whoever calls it (API route,
 * dashboard action), once its input is valid.
 */
export async function payOrder(db: Db, merchantId: number, orderKey: string, input: PayOrderBody) {
  const order = await getOrderOrThrow(db, merchantId, orderKey);
  const chain = findBlockchainById(order.blockchainId)!;
  const token = findToken(chain, input.currency ?? order.currency);
  if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `${input.currency} is not offered on ${chain.slug}.`);
  const amount = input.amount !== undefined ? parseAmount(input.amount, token.decimals) : defaultPayment(order, token);
  await spendFaucetSend(db, merchantId);
  const hash = await sendFromFaucet(chain, token, getAddress(order.receivingAddress), amount);
  await kick(taskNames.watchChain(chain.slug));
  return {
    transaction_hash: hash,
    order_id: order.orderId,
    to_address: order.receivingAddress,
    amount: formatAmount(amount, token.decimals),
    currency: token.symbol,
    blockchain: chain.slug,
  };
}

/** What a pay without an amount sends: the part of the order still missing, or the whole amount in another asset. */
function defaultPayment(order: PaymentOrder, token: TokenInfo): bigint {
  if ((token.address ?? null) !== (order.tokenAddress ?? null)) {
    const scale = token.decimals - order.decimals;
    return scale >= 0 ? BigInt(order.amount) * 10n ** BigInt(scale) : BigInt(order.amount) / 10n ** BigInt(-scale);
  }
  const missing = BigInt(order.amount) - BigInt(order.amountReceived);
  if (missing <= 0n)
    throw new ApiError(
      "CONFLICT",
      `Nothing is left to pay on ${order.orderId}: ${formatAmount(BigInt(order.amountReceived), order.decimals)} ${order.currency} already arrived. Give an amount to pay more.`,
    );
  return missing;
}

/** POST /api/sandbox/mine/: simulated confirmations, charged to the merchant's block budget. */
export async function mine(db: Db, merchantId: number, input: MineBody) {
  const chain = chainBySlugOrThrow(input.blockchain);
  await spendMinedBlocks(db, merchantId, input.blocks);
  const head = await devnetCall(() => mineBlocks(chain, input.blocks));
  await kick(taskNames.watchChain(chain.slug));
  return { blocks: input.blocks, block_number: Number(head), blockchain: chain.slug };
}

/**
 * POST /api/sandbox/reorg/ (and the sandbox page's button): a chain reorganisation on the devnet, so
 * a merchant can rehearse what a vanished payment looks like. Charged to the merchant's mined-block
 * budget like mine: the new branch is at least depth + 1 blocks. The devnet is every merchant's, so
 * only the asking merchant's transactions vanish (`merchantTransactions`); every other transaction
 * of the replaced blocks is mined again on the new branch, and other merchants' payments stay
 * confirmed, never at risk (docs/design/sandbox.md › Tools, docs/adr/0018).
 */
export async function reorg(db: Db, merchantId: number, input: ReorgBody) {
  const chain = chainBySlugOrThrow(input.blockchain);
  await spendMinedBlocks(db, merchantId, input.depth + 1);
  const result = await devnetCall(() => reorgBlocks(chain, input.depth, (replaced) => merchantTransactions(db, merchantId, replaced)));
  await kick(taskNames.watchChain(chain.slug));
  return {
    depth: result.depth,
    from_block: Number(result.fromBlock),
    block_number: Number(result.head),
    blockchain: chain.slug,
    removed_transactions: result.removed,
    kept_transactions: result.kept,
  };
}

/**
 * Which replaced devnet transactions are the merchant's: those that touch one of its orders'
 * deposit addresses (a payment, a relay, a flush) or its payout wallets (a sweep's transfer, a
 * refund), and its sweeps' transactions (a native flush leaves no log). Shared ones (a sweep batch
 * with other merchants' deposits) count as the merchant's: the others' sweeps are then sent again,
 * their payments untouched.
 */
async function merchantTransactions(db: Db, merchantId: number, replaced: ReplacedTransaction[]): Promise<Set<Hex>> {
  const devnetChainIds = listBlockchains()
    .filter((c) => c.isDevnet)
    .map((c) => c.id);
  const addresses = [...new Set(replaced.flatMap((r) => r.addresses))];
  const hashes = replaced.map((r) => r.transaction.hash.toLowerCase());
  const [deposits, wallets, sweptBy] = await Promise.all([
    merchantDepositAddressesAmong(db, merchantId, devnetChainIds, addresses),
    merchantWalletAddressesAmong(db, merchantId, addresses),
    merchantSweepHashesAmong(db, merchantId, hashes),
  ]);
  const owned = replaced.filter((r) => sweptBy.has(r.transaction.hash.toLowerCase()) || r.addresses.some((a) => deposits.has(a) || wallets.has(a)));
  return new Set(owned.map((r) => r.transaction.hash));
}

/** POST /api/sandbox/faucet/: test tokens or native coin to any address, charged to the merchant's faucet budget. */
export async function dripFaucet(db: Db, merchantId: number, input: FaucetBody) {
  const chain = chainBySlugOrThrow(input.blockchain);
  if (!isAddress(input.address, { strict: false })) throw validationError({ address: ["Enter a valid EVM address."] });
  const token = findToken(chain, input.currency);
  if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `${input.currency} is not offered on ${chain.slug}.`);
  const amount = parseAmount(input.amount, token.decimals);
  assertFaucetAmount(token, amount);
  await spendFaucetSend(db, merchantId);
  const hash = await faucet(chain, token, getAddress(input.address), amount);
  return {
    transaction_hash: hash,
    address: getAddress(input.address),
    amount: formatAmount(amount, token.decimals),
    currency: token.symbol,
    blockchain: chain.slug,
  };
}
