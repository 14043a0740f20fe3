/**
 * The order lifecycle's decision (lib/orders/lifecycle.ts `decide`), as the pure function it is: an
 * order, its transfers, the chain head, the clock and when the chain was last scanned in; what the order
 * moves to and what counted. The engine's tests drive the same rules through a devnet; these pin each
 * rule on its own, including the edges a devnet makes hard to reach (a deadline passed but not yet
 * scanned past, a tolerance that rounds).
 */
import { describe, expect, test } from "vitest";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import { decide } from "@/lib/orders/lifecycle";

const USDC = "0x036cbd53842c5426634e7929541ec2318f3dcf7e";
const created = new Date("2026-11-01T10:00:00Z");
const deadline = new Date("2026-11-01T10:30:00Z");
const before = new Date("2026-11-01T10:10:00Z");
const after = new Date("2026-11-01T10:40:00Z");

function order(overrides: Partial<PaymentOrder> = {}): PaymentOrder {
  return {
    id: 1,
    orderId: "ord-test",
    merchantId: 1,
    blockchainId: 2,
    tokenAddress: USDC,
    amount: "10000000",
    status: "pending",
    paymentToleranceBps: 0,
    confirmationThreshold: 3,
    expiresAt: deadline,
    createdAt: created,
    updatedAt: created,
    confirmedAt: null,
    ...overrides,
  } as PaymentOrder;
}

let nextLog = 0;
function transfer(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: ++nextLog,
    blockchainId: 2,
    txHash: `0x${nextLog.toString(16).padStart(64, "0")}`,
    logIndex: nextLog,
    blockNumber: 100n,
    tokenAddress: USDC,
    currency: "USDC",
    amount: "10000000",
    status: "pending",
    counted: true,
    paymentOrderId: 1,
    merchantId: 1,
    ...overrides,
  } as Transaction;
}

describe("a pending order", () => {
  test("waits while nothing arrived and the deadline is ahead", () => {
    expect(decide(order(), [], 100n, before, before)).toEqual({ decision: null, received: 0n });
  });

  test("moves to processing once counted money covers the amount", () => {
    expect(decide(order(), [transfer()], 100n, before, before)).toEqual({ decision: { to: "processing" }, received: 10_000_000n });
  });

  test("adds up several counted transfers, and leaves out uncounted and dropped ones", () => {
    const parts = [transfer({ amount: "4000000" }), transfer({ amount: "6000000" })];
    expect(decide(order(), parts, 100n, before, before).decision).toEqual({ to: "processing" });
    const notCounting = [transfer({ amount: "4000000" }), transfer({ amount: "6000000", counted: false }), transfer({ amount: "6000000", status: "dropped" })];
    expect(decide(order(), notCounting, 100n, before, before)).toEqual({ decision: null, received: 4_000_000n });
  });

  test("the merchant's tolerance counts an underpayment within it as paid, rounding the amount due up", () => {
    const tolerant = order({ amount: "1000", paymentToleranceBps: 50 }); // 0.5 % of 1000 base units = 5: 995 due
    expect(decide(tolerant, [transfer({ amount: "995" })], 100n, before, before).decision).toEqual({ to: "processing" });
    expect(decide(tolerant, [transfer({ amount: "994" })], 100n, before, before).decision).toBeNull();
    const odd = order({ amount: "1001", paymentToleranceBps: 50 }); // 1001 × 0.995 = 995.995: 996 due
    expect(decide(odd, [transfer({ amount: "995" })], 100n, before, before).decision).toBeNull();
    expect(decide(odd, [transfer({ amount: "996" })], 100n, before, before).decision).toEqual({ to: "processing" });
  });

  test("is not expired until the chain has been scanned past its deadline", () => {
    expect(decide(order(), [], 100n, after, null).decision).toBeNull();
    expect(decide(order(), [], 100n, after, before).decision).toBeNull();
    expect(decide(order(), [], 100n, after, after).decision).toEqual({ to: "expired" });
    expect(decide(order(), [], 100n, after, deadline).decision).toEqual({ to: "expired" });
  });

  test("at its deadline: underpaid if some counted money arrived", () => {
    expect(decide(order(), [transfer({ amount: "1" })], 100n, after, after)).toEqual({ decision: { to: "failed", failureReason: "underpaid" }, received: 1n });
  });

  test("at its deadline: a late payment of its own asset fails it in one step, not expired then failed", () => {
    expect(decide(order(), [transfer({ counted: false })], 100n, after, after)).toEqual({
      decision: { to: "failed", failureReason: "late_payment" },
      received: 0n,
    });
  });

  test("at its deadline: another asset arriving late is not a late payment; the order expires", () => {
    const otherAsset = transfer({ counted: false, tokenAddress: null, currency: "ETH" });
    expect(decide(order(), [otherAsset], 100n, after, after).decision).toEqual({ to: "expired" });
    const otherChain = transfer({ counted: false, blockchainId: 3 });
    expect(decide(order(), [otherChain], 100n, after, after).decision).toEqual({ to: "expired" });
  });

  test("at its deadline: a reverted transfer and nothing else fails it as reverted", () => {
    expect(decide(order(), [transfer({ status: "failed", counted: false })], 100n, after, after).decision).toEqual({ to: "failed", failureReason: "reverted" });
  });

  test("token addresses compare without case; a native order matches a native transfer", () => {
    expect(decide(order({ tokenAddress: USDC.toUpperCase().replace("0X", "0x") }), [transfer({ counted: false })], 100n, after, after).decision).toEqual({
      to: "failed",
      failureReason: "late_payment",
    });
    const native = order({ tokenAddress: null });
    expect(decide(native, [transfer({ counted: false, tokenAddress: null })], 100n, after, after).decision).toEqual({
      to: "failed",
      failureReason: "late_payment",
    });
  });
});

describe("a processing order", () => {
  const processing = order({ status: "processing", confirmationThreshold: 3 });

  test("confirms when every counted transfer has the threshold's confirmations (the head's own block counts one)", () => {
    const mined = [transfer({ blockNumber: 100n, amount: "5000000" }), transfer({ blockNumber: 101n, amount: "5000000" })];
    expect(decide(processing, mined, 102n, before, before).decision).toBeNull(); // 101 has 2
    expect(decide(processing, mined, 103n, before, before)).toEqual({ decision: { to: "confirmed" }, received: 10_000_000n });
  });

  test("a head behind the transfer's block (a provider lagging) gives it no confirmations", () => {
    expect(decide(processing, [transfer({ blockNumber: 200n })], 150n, before, before).decision).toBeNull();
  });

  test("goes back to pending when a reorg took money away, even past its deadline", () => {
    expect(decide(processing, [transfer({ status: "dropped" })], 103n, after, after)).toEqual({ decision: { to: "pending" }, received: 0n });
  });
});

describe("a settled order", () => {
  test("expired: fails as late_payment when its own asset arrives, stays when another asset does", () => {
    const expired = order({ status: "expired" });
    expect(decide(expired, [transfer({ counted: false })], 100n, after, after).decision).toEqual({ to: "failed", failureReason: "late_payment" });
    expect(decide(expired, [transfer({ counted: false, tokenAddress: null, currency: "ETH" })], 100n, after, after).decision).toBeNull();
    expect(decide(expired, [transfer({ counted: false, status: "dropped" })], 100n, after, after).decision).toBeNull();
  });

  test.each(["confirmed", "failed"])("%s: never moves again", (status) => {
    const settled = order({ status });
    expect(decide(settled, [transfer({ status: "dropped" })], 100n, after, after).decision).toBeNull();
    expect(decide(settled, [transfer({ counted: false })], 100n, after, after).decision).toBeNull();
  });
});
