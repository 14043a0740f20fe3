import "server-only";
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  formatUnits,
  getAddress,
  isAddressEqual,
  parseSignature,
  recoverTypedDataAddress,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { findBlockchainById, findToken, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { FeeAboveCeilingError, sendManaged, TransactionStillPendingError } from "@/lib/chains/tx-sender";
import type { PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { observeGaslessRelay } from "@/lib/metrics/record";
import { ApiError, notFound, type FieldErrors } from "@/lib/http/errors";
import { kick, taskNames } from "@/lib/jobs/kick";
import { describeError, log } from "@/lib/log";
import { findPublicOrderRow } from "@/lib/orders/public-order";
import { minRelayWindowSeconds, orderValidAfter, orderValidBefore } from "./offer";
import {
  gaslessConfigured,
  gasPriceTooHigh,
  offerRelayGas,
  readRelayConditions,
  relayerAtFloor,
  relayerFloorWei,
  relayerKey,
  relayBudgetExhausted,
  relayBudgets,
  relayFeeCeiling,
  relayRefusal,
} from "./policy";
import { deleteRelay, findRelayByAuthorization, reserveRelay, updateRelay } from "./queries";
import { recordRelayOutcome } from "./relay-outcome";
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
async function checkAuthorization(
  order: PaymentOrder,
  chain: Blockchain,
  token: TokenInfo & { address: Address; eip3009: NonNullable<TokenInfo["eip3009"]> },
  body: GaslessPaymentBody,
  now: Date,
): Promise<{ authorization: TransferAuthorization; signature: Hex }> {
  const due = BigInt(order.amount) - BigInt(order.amountReceived);
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000));
  const details: FieldErrors = {};
  if (!isAddressEqual(body.to as Address, order.receivingAddress as Address)) details.to = ["Must be this order's deposit address (receiving_address)."];
  if (BigInt(body.value) !== due)
    details.value = [`Must be exactly the amount due now: ${formatUnits(due, token.decimals)} ${token.symbol} (${due} base units).`];
  const validAfter = BigInt(body.valid_after);
  const validBefore = BigInt(body.valid_before);
  if (validAfter < orderValidAfter(order)) details.valid_after = [`Must be within the order's life: at least ${orderValidAfter(order)}.`];
  else if (validAfter >= nowSeconds) details.valid_after = ["Must be in the past: the payment is relayed now."];
  if (validBefore > orderValidBefore(order)) details.valid_before = [`Must be within the order's life: at most ${orderValidBefore(order)} (its expiry).`];
  else if (validBefore < nowSeconds + BigInt(minRelayWindowSeconds))
    details.valid_before = ["The authorization has expired (or expires within 30 seconds); sign a new one."];
  if (Object.keys(details).length > 0) throw invalid(details);

  const authorization: TransferAuthorization = {
    from: getAddress(body.from),
    to: getAddress(order.receivingAddress),
    value: due,
    validAfter,
    validBefore,
    nonce: body.nonce.toLowerCase() as Hex,
  };
  const signature = body.signature as Hex;
  const typedData = transferAuthorizationTypedData({ ...token.eip3009, chainId: chain.chainId, verifyingContract: token.address }, authorization);
  const signer = await recoverTypedDataAddress({ ...typedData, signature }).catch(() => null);
  if (!signer || !isAddressEqual(signer, authorization.from)) {
    throw invalid({
      signature: [
        `Was not made by ${authorization.from} over this transfer (this order's address and amount, this window and nonce, in the ${token.symbol} contract's domain).`,
      ],
    });
  }
  return { authorization, signature };
}

/** Sent from inside the relayer's account lock: its balance would go under the floor. Nothing was sent. */
class RelayerAtFloorError extends Error {}

/**
 * POST /api/pay/{order_id}/gasless/: relays a customer's signed EIP-3009 transferWithAuthorization
 * to the order's deposit address from the gateway's relayer, paying its gas (docs/design/payments.md ›
 * Gasless payments). Refused first when the relay is not worth it or the relayer is at its floor
 * (lib/gasless/policy.ts, the rule the payment page's offer follows), then the authorization is
 * checked (checkAuthorization), then refused when its nonce is on record here or used on chain, when
 * `from` holds too little or the token's simulation refuses it, when gas is above the relay ceiling,
 * or when the merchant's or everyone's hourly relay gas is used up. The relayer's floor is checked
 * once more under its account lock, right before sending. The relay's hash, gas and cost are
 * recorded per order and counted in the metrics; the scanner sees its Transfer like any other.
 */
export async function relayGaslessPayment(
  db: Db,
  orderId: string,
  body: GaslessPaymentBody,
  now = new Date(),
): Promise<{ status: "mined" | "pending"; transaction_hash: string }> {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const chain = findBlockchainById(order.blockchainId);
  const found = chain ? findToken(chain, order.currency) : null;
  if (!chain || !found) throw notFound("Payment order");
  if (!found.address || !found.eip3009)
    throw new ApiError("UNSUPPORTED_CURRENCY", `${found.symbol} on ${chain.name} cannot be paid without gas (it has no EIP-3009 transferWithAuthorization).`);
  const key = relayerKey(chain);
  if (!gaslessConfigured(chain, found) || !key) throw new ApiError("SERVICE_UNAVAILABLE", `Gasless payments are not available on ${chain.name}.`);
  const token = found;
  const due = BigInt(order.amount) - BigInt(order.amountReceived);
  if (order.status !== "pending" || due <= 0n || order.expiresAt <= now) {
    throw new ApiError(
      "CONFLICT",
      `The order is ${order.expiresAt <= now && order.status === "pending" ? "expired" : order.status}; it does not accept a payment now.`,
    );
  }
  const refuse = (refusal: ReturnType<typeof relayRefusal>) => {
    if (!refusal) return;
    observeGaslessRelay(chain.slug, `refused_${refusal.outcome}`);
    throw refusal.error;
  };
  const conditions = await readRelayConditions(chain, now);
  refuse(relayRefusal(chain, token, due, offerRelayGas, conditions));
  const { authorization, signature } = await checkAuthorization(order, chain, token, body, now);

  const tokenKey = {
    blockchainId: chain.id,
    tokenAddress: token.address.toLowerCase(),
    fromAddress: authorization.from.toLowerCase(),
    authorizationNonce: authorization.nonce,
  };
  const used = () => new ApiError("AUTHORIZATION_USED", "This authorization was already used; sign a new one.");
  if (await findRelayByAuthorization(db, tokenKey)) throw used();
  const client = chainClient(chain);
  if (
    await client.readContract({ address: token.address, abi: eip3009Abi, functionName: "authorizationState", args: [authorization.from, authorization.nonce] })
  )
    throw used();
  const balance = await client.readContract({ address: token.address, abi: eip3009Abi, functionName: "balanceOf", args: [authorization.from] });
  if (balance < authorization.value)
    throw invalid({
      from: [`Holds ${formatUnits(balance, token.decimals)} ${token.symbol}, less than the ${formatUnits(authorization.value, token.decimals)} due.`],
    });

  const { v, r, s, yParity } = parseSignature(signature);
  const args = [
    authorization.from,
    authorization.to,
    authorization.value,
    authorization.validAfter,
    authorization.validBefore,
    authorization.nonce,
    Number(v ?? BigInt(yParity + 27)),
    r,
    s,
  ] as const;
  const relayer = privateKeyToAddress(key);
  // The token's own verdict before anything is sent (a window the chain's clock has not reached, a nonce used meanwhile, a bad signature).
  await client
    .simulateContract({ account: relayer, address: token.address, abi: eip3009Abi, functionName: "transferWithAuthorization", args })
    .catch((error: unknown) => {
      const reason = revertReason(error);
      if (reason === "AuthorizationUsedOrCanceled" || /authorization is used or canceled/i.test(reason ?? "")) throw used();
      if (reason) throw invalid({ signature: [`The ${token.symbol} contract refused the authorization (${reason}).`] });
      throw error;
    });
  const data = encodeFunctionData({ abi: eip3009Abi, functionName: "transferWithAuthorization", args });
  const estimated = await client.estimateGas({ account: relayer, to: token.address, data });
  const gasLimit = (estimated * gasMarginPercent) / 100n;
  // The same rule at this relay's own gas.
  refuse(relayRefusal(chain, token, due, { expected: estimated, limit: gasLimit }, conditions));

  const ceiling = relayFeeCeiling(chain);

  const budgets = relayBudgets();
  const reserved = await reserveRelay(
    db,
    { paymentOrderId: order.id, merchantId: order.merchantId, ...tokenKey, value: authorization.value.toString(), gasLimit },
    budgets,
    now,
  );
  if ("duplicate" in reserved) throw used();
  if ("exhausted" in reserved) {
    observeGaslessRelay(chain.slug, "refused_budget");
    if (reserved.exhausted === "all")
      log.warn("gasless relay budget of all merchants used up", { chain: chain.slug, order_id: order.orderId, retry_after: reserved.retryAfterSeconds });
    throw relayBudgetExhausted(reserved.exhausted, reserved.retryAfterSeconds);
  }
  const { relay } = reserved;
  // Under the relayer's account lock, once the relays before it have been sent: the floor holds however many arrive at once.
  const build = async () => {
    const relayerBalance = await client.getBalance({ address: relayer });
    if (relayerBalance - gasLimit * ceiling < relayerFloorWei(chain)) throw new RelayerAtFloorError();
    return { to: token.address, data, gas: gasLimit };
  };
  try {
    const { hash, receipt } = await sendManaged(
      db,
      { ...chain, maxFeePerGas: ceiling },
      client,
      key,
      { purpose: "gasless_relay", purposeId: relay.id },
      build,
      {
        replaceAfterMs: env.TX_REPLACE_AFTER_SECONDS * 1000,
        waitMs: relayWaitMs,
      },
    );
    const mined = await recordRelayOutcome(db, chain.slug, relay.id, hash, receipt, "transferWithAuthorization");
    log.info("gasless payment relayed", {
      order_id: order.orderId,
      chain: chain.slug,
      hash,
      gas_used: String(receipt.gasUsed),
      cost_wei: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
      status: receipt.status,
    });
    await kick(taskNames.watchChain(chain.slug));
    // Someone else sent the same authorization first: the payment still arrived (their transaction), ours paid for nothing.
    if (!mined) throw used();
    return { status: "mined", transaction_hash: hash };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof TransactionStillPendingError) {
      // In flight: kept (and counted against the budgets at its gas limit); the scanner sees its transfer when it is mined.
      observeGaslessRelay(chain.slug, "pending");
      const hash = /Transaction (0x[0-9a-f]{64})/.exec(error.message)?.[1] ?? null;
      await updateRelay(db, relay.id, { txHash: hash });
      if (hash) return { status: "pending", transaction_hash: hash };
      throw new ApiError("SERVICE_UNAVAILABLE", "The payment was sent without gas but is not mined yet; this page follows it.");
    }
    // Never sent (the relayer at its floor or the fee above the ceiling at send time, refused by the node): forgotten, costing nothing.
    await deleteRelay(db, relay.id);
    if (error instanceof RelayerAtFloorError) {
      observeGaslessRelay(chain.slug, "refused_floor");
      log.warn("gasless relay refused: the relayer is at its balance floor", { order_id: order.orderId, chain: chain.slug, relayer });
      throw relayerAtFloor(chain);
    }
    if (error instanceof FeeAboveCeilingError) {
      observeGaslessRelay(chain.slug, "refused_gas_price");
      throw gasPriceTooHigh(chain, ceiling);
    }
    observeGaslessRelay(chain.slug, "failed");
    log.warn("gasless relay failed", { order_id: order.orderId, chain: chain.slug, ...describeError(error) });
    throw new ApiError("SERVICE_UNAVAILABLE", "The payment could not be sent without gas just now; try again, or pay from your wallet.");
  }
}
