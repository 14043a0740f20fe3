import "server-only";
import { BaseError, ContractFunctionRevertedError, encodeFunctionData, formatGwei, formatUnits, getAddress, isAddressEqual, parseSignature, recoverTypedDataAddress, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { findBlockchainById, findToken, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { FeeAboveCeilingError, feesWithinCeiling, sendManaged, TransactionStillPendingError } from "@/lib/chains/tx-sender";
import type { PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, type FieldErrors } from "@/lib/http/errors";
import { kick, taskNames } from "@/lib/jobs/kick";
import { describeError, log } from "@/lib/log";
import { findPublicOrderRow } from "@/lib/orders/public-order";
import { minRelayWindowSeconds, orderValidAfter, orderValidBefore, relayerKey, relayFeeCeiling } from "./offer";
import { deleteRelay, findRelayByAuthorization, reserveRelay, updateRelay } from "./queries";
import type { GaslessPaymentBody } from "./schemas";
import { eip3009Abi, transferAuthorizationTypedData, type TransferAuthorization } from "./typed-data";

/** Above the estimate: room for the chain state to move between estimate and inclusion. */
const gasMarginPercent = 120n;
/** How long the request waits for the relay to be mined before answering `pending` (it stays in flight). */
const relayWaitMs = 30_000;

const invalid = (details: FieldErrors) => new ApiError("INVALID_AUTHORIZATION", "The authorization does not pay this order.", details);

/** The custom error or revert reason a simulated call gave, for the customer's 400. */
function revertReason(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (reverted) return reverted.data?.errorName ?? reverted.reason ?? "reverted";
  return /revert/i.test(error.message) ? error.shortMessage : null;
}

/**
 * The checks that bind an authorization to this order and amount, before anything is sent: `to`
 * is the order's deposit address, `value` exactly what is due now, the window within the order's
 * life and not about to close, and the signature recovers to `from` over exactly these fields in
 * the token's EIP-712 domain. Throws INVALID_AUTHORIZATION naming the field.
 */
async function checkAuthorization(order: PaymentOrder, chain: Blockchain, token: TokenInfo & { address: Address; eip3009: NonNullable<TokenInfo["eip3009"]> }, body: GaslessPaymentBody, now: Date): Promise<{ authorization: TransferAuthorization; signature: Hex }> {
  const due = BigInt(order.amount) - BigInt(order.amountReceived);
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000));
  const details: FieldErrors = {};
  if (!isAddressEqual(body.to as Address, order.receivingAddress as Address)) details.to = ["Must be this order's deposit address (receiving_address)."];
  if (BigInt(body.value) !== due) details.value = [`Must be exactly the amount due now: ${formatUnits(due, token.decimals)} ${token.symbol} (${due} base units).`];
  const validAfter = BigInt(body.valid_after);
  const validBefore = BigInt(body.valid_before);
  if (validAfter < orderValidAfter(order)) details.valid_after = [`Must be within the order's life: at least ${orderValidAfter(order)}.`];
  else if (validAfter >= nowSeconds) details.valid_after = ["Must be in the past: the payment is relayed now."];
  if (validBefore > orderValidBefore(order)) details.valid_before = [`Must be within the order's life: at most ${orderValidBefore(order)} (its expiry).`];
  else if (validBefore < nowSeconds + BigInt(minRelayWindowSeconds)) details.valid_before = ["The authorization has expired (or expires within 30 seconds); sign a new one."];
  if (Object.keys(details).length > 0) throw invalid(details);

  const authorization: TransferAuthorization = { from: getAddress(body.from), to: getAddress(order.receivingAddress), value: due, validAfter, validBefore, nonce: body.nonce.toLowerCase() as Hex };
  const signature = body.signature as Hex;
  const typedData = transferAuthorizationTypedData({ ...token.eip3009, chainId: chain.chainId, verifyingContract: token.address }, authorization);
  const signer = await recoverTypedDataAddress({ ...typedData, signature }).catch(() => null);
  if (!signer || !isAddressEqual(signer, authorization.from)) {
    throw invalid({ signature: [`Was not made by ${authorization.from} over this transfer (this order's address and amount, this window and nonce, in the ${token.symbol} contract's domain).`] });
  }
  return { authorization, signature };
}

/**
 * POST /api/pay/{order_id}/gasless/: relays a customer's signed EIP-3009 transferWithAuthorization
 * to the order's deposit address from the gateway's relayer, paying its gas (docs/decisions.md ›
 * Gasless payments). Checked first (checkAuthorization), then refused when its nonce is on record
 * here or used on chain, when `from` holds too little or the token's simulation refuses it, when
 * gas is above the relay ceiling, or when the merchant's hourly relay gas is used up. The relay's
 * hash, gas and cost are recorded per order; the scanner sees its Transfer like any other.
 */
export async function relayGaslessPayment(db: Db, orderId: string, body: GaslessPaymentBody, now = new Date()): Promise<{ status: "mined" | "pending"; transaction_hash: string }> {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const chain = findBlockchainById(order.blockchainId);
  const found = chain ? findToken(chain, order.currency) : null;
  if (!chain || !found) throw notFound("Payment order");
  if (!found.address || !found.eip3009) throw new ApiError("UNSUPPORTED_CURRENCY", `${found.symbol} on ${chain.name} cannot be paid without gas (it has no EIP-3009 transferWithAuthorization).`);
  const token = { ...found, address: found.address, eip3009: found.eip3009 };
  const key = relayerKey(chain);
  if (!key || !chain.rpcUrl || env.GASLESS_GAS_PER_MERCHANT_PER_HOUR === 0) throw new ApiError("SERVICE_UNAVAILABLE", `Gasless payments are not available on ${chain.name}.`);
  if (order.status !== "pending" || BigInt(order.amount) <= BigInt(order.amountReceived) || order.expiresAt <= now) {
    throw new ApiError("CONFLICT", `The order is ${order.expiresAt <= now && order.status === "pending" ? "expired" : order.status}; it does not accept a payment now.`);
  }
  const { authorization, signature } = await checkAuthorization(order, chain, token, body, now);

  const tokenKey = { blockchainId: chain.id, tokenAddress: token.address.toLowerCase(), fromAddress: authorization.from.toLowerCase(), authorizationNonce: authorization.nonce };
  const used = () => new ApiError("AUTHORIZATION_USED", "This authorization was already used; sign a new one.");
  if (await findRelayByAuthorization(db, tokenKey)) throw used();
  const client = chainClient(chain);
  if (await client.readContract({ address: token.address, abi: eip3009Abi, functionName: "authorizationState", args: [authorization.from, authorization.nonce] })) throw used();
  const balance = await client.readContract({ address: token.address, abi: eip3009Abi, functionName: "balanceOf", args: [authorization.from] });
  if (balance < authorization.value) throw invalid({ from: [`Holds ${formatUnits(balance, token.decimals)} ${token.symbol}, less than the ${formatUnits(authorization.value, token.decimals)} due.`] });

  const { v, r, s, yParity } = parseSignature(signature);
  const args = [authorization.from, authorization.to, authorization.value, authorization.validAfter, authorization.validBefore, authorization.nonce, Number(v ?? BigInt(yParity + 27)), r, s] as const;
  const relayer = privateKeyToAddress(key);
  // The token's own verdict before anything is sent (a window the chain's clock has not reached, a nonce used meanwhile, a bad signature).
  await client.simulateContract({ account: relayer, address: token.address, abi: eip3009Abi, functionName: "transferWithAuthorization", args }).catch((error: unknown) => {
    const reason = revertReason(error);
    if (reason === "AuthorizationUsedOrCanceled" || /authorization is used or canceled/i.test(reason ?? "")) throw used();
    if (reason) throw invalid({ signature: [`The ${token.symbol} contract refused the authorization (${reason}).`] });
    throw error;
  });
  const data = encodeFunctionData({ abi: eip3009Abi, functionName: "transferWithAuthorization", args });
  const estimated = await client.estimateGas({ account: relayer, to: token.address, data });
  const gasLimit = (estimated * gasMarginPercent) / 100n;

  const ceiling = relayFeeCeiling(chain);
  await feesWithinCeiling(client, ceiling).catch((error: unknown) => {
    throw error instanceof FeeAboveCeilingError ? gasTooHigh(chain, ceiling) : error;
  });

  const reserved = await reserveRelay(db, { paymentOrderId: order.id, merchantId: order.merchantId, ...tokenKey, value: authorization.value.toString(), gasLimit }, BigInt(env.GASLESS_GAS_PER_MERCHANT_PER_HOUR), now);
  if ("duplicate" in reserved) throw used();
  if ("exhausted" in reserved) {
    throw new ApiError("RELAY_BUDGET_EXHAUSTED", "Gasless payments for this shop are paused for now; pay from your wallet or try again later.", undefined, {
      body: { retry_after: reserved.retryAfterSeconds },
      headers: { "Retry-After": String(reserved.retryAfterSeconds) },
    });
  }
  const { relay } = reserved;
  try {
    const { hash, receipt } = await sendManaged(db, { ...chain, maxFeePerGas: ceiling }, client, key, { purpose: "gasless_relay", purposeId: relay.id }, async () => ({ to: token.address, data, gas: gasLimit }), {
      replaceAfterMs: env.TX_REPLACE_AFTER_SECONDS * 1000,
      waitMs: relayWaitMs,
    });
    const costWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const mined = receipt.status === "success";
    await updateRelay(db, relay.id, { status: mined ? "mined" : "reverted", txHash: hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice.toString(), costWei: costWei.toString(), lastError: mined ? null : "transferWithAuthorization reverted" });
    log.info("gasless payment relayed", { order_id: order.orderId, chain: chain.slug, hash, gas_used: String(receipt.gasUsed), status: receipt.status });
    await kick(taskNames.watchChain(chain.slug));
    // Someone else sent the same authorization first: the payment still arrived (their transaction), ours paid for nothing.
    if (!mined) throw used();
    return { status: "mined", transaction_hash: hash };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof TransactionStillPendingError) {
      // In flight: kept (and counted against the budget at its gas limit); the scanner sees its transfer when it is mined.
      const hash = /Transaction (0x[0-9a-f]{64})/.exec(error.message)?.[1] ?? null;
      await updateRelay(db, relay.id, { txHash: hash });
      if (hash) return { status: "pending", transaction_hash: hash };
      throw new ApiError("SERVICE_UNAVAILABLE", "The payment was sent without gas but is not mined yet; this page follows it.");
    }
    // Never sent (fee above the ceiling at send time, refused by the node): forgotten, costing nothing.
    await deleteRelay(db, relay.id);
    if (error instanceof FeeAboveCeilingError) throw gasTooHigh(chain, ceiling);
    log.warn("gasless relay failed", { order_id: order.orderId, chain: chain.slug, ...describeError(error) });
    throw new ApiError("SERVICE_UNAVAILABLE", "The payment could not be sent without gas just now; try again, or pay from your wallet.");
  }
}

function gasTooHigh(chain: Blockchain, ceiling: bigint): ApiError {
  return new ApiError("GAS_PRICE_TOO_HIGH", `Gas on ${chain.name} is above the gasless ceiling of ${formatGwei(ceiling)} gwei; nothing was sent. Pay from your wallet, or try again later.`);
}
