/**
 * The payout rules that need no chain: how a receipt's disperser events settle each leg, and when a
 * batch needs a second member's approval.
 */
import { describe, expect, test } from "vitest";
import { encodeAbiParameters, encodeEventTopics, zeroAddress, type Address, type Hex } from "viem";
import { disperserAbi } from "@/lib/payouts/disperser";
import { needsApproval } from "@/lib/payouts/price-legs";
import { legOutcomes } from "@/lib/payouts/settle-payouts";

const contract: Address = "0x1111111111111111111111111111111111111111";
const alice: Address = "0x2222222222222222222222222222222222222222";
const bob: Address = "0x3333333333333333333333333333333333333333";

function legEvent(
  name: "LegPaid" | "LegFailed",
  batchId: bigint,
  leg: bigint,
  to: Address,
  amount: bigint,
  address: Address = contract,
  token: Address = zeroAddress,
) {
  return {
    address,
    topics: encodeEventTopics({ abi: disperserAbi, eventName: name, args: { batchId, leg, to } }) as Hex[],
    data: encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [token, amount]),
  };
}

const batch = { id: 7, tokenAddress: null };
const legs = [
  { position: 0, toAddress: alice, amount: "100" },
  { position: 1, toAddress: bob, amount: "200" },
];

describe("legOutcomes", () => {
  test("a LegPaid of exactly the leg pays it; a LegFailed fails it with the recipient's refusal", () => {
    const outcomes = legOutcomes(
      batch,
      legs,
      { status: "success", logs: [legEvent("LegPaid", 7n, 0n, alice, 100n), legEvent("LegFailed", 7n, 1n, bob, 200n)] as never },
      contract,
    );
    expect(outcomes.get(0)).toEqual({ status: "paid" });
    expect(outcomes.get(1)).toMatchObject({ status: "failed", reason: expect.stringMatching(/refused/) });
  });

  test("another amount, recipient, batch id or emitter does not pay a leg", () => {
    for (const log of [
      legEvent("LegPaid", 7n, 0n, alice, 99n),
      legEvent("LegPaid", 7n, 0n, bob, 100n),
      legEvent("LegPaid", 8n, 0n, alice, 100n),
      legEvent("LegPaid", 7n, 0n, alice, 100n, bob),
      legEvent("LegPaid", 7n, 0n, alice, 100n, contract, bob),
    ]) {
      const outcomes = legOutcomes(batch, legs, { status: "success", logs: [log] as never }, contract);
      expect(outcomes.get(0)).toMatchObject({ status: "failed", reason: expect.stringMatching(/did not pay/) });
    }
  });

  test("a reverted transaction paid nobody", () => {
    const outcomes = legOutcomes(batch, legs, { status: "reverted", logs: [] }, contract);
    expect([...outcomes.values()].map((o) => o.status)).toEqual(["failed", "failed"]);
  });
});

describe("needsApproval", () => {
  test("above the threshold, or of unknown worth while one is set; never without a threshold", () => {
    expect(needsApproval("100.01", "100")).toBe(true);
    expect(needsApproval("100", "100")).toBe(false);
    expect(needsApproval("0", "0")).toBe(false);
    expect(needsApproval(null, "100")).toBe(true);
    expect(needsApproval(null, null)).toBe(false);
    expect(needsApproval("1000000", null)).toBe(false);
  });
});
