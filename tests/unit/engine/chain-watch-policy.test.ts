import { describe, expect, test } from "vitest";
import { chainWatchSleepMs, mayLeaveMoneyToSweep, quietChainBackstopMs, quietChainPollMs, quietChainSleepMs, tickWasBusy } from "@/lib/engine/tasks";

const now = Date.parse("2026-01-01T00:00:00Z");
const idleTick = {
  scan: { head: 10n, fromBlock: null, toBlock: null, transfers: 0, reset: false, chunks: 0, partial: false },
  attributed: { transfers: 0, refunds: 0, remaining: false },
  internalDeposits: 0,
  lifecycle: { transitions: [] },
  reorg: { dropped: 0, atRisk: [], sweepsRequeued: 0 },
};

describe("a chain watcher's sleep after a tick that succeeded", () => {
  test("a chain that is not quiet polls at its own interval", () => {
    expect(chainWatchSleepMs({ pollIntervalMs: 250, quiet: false, firstDeadline: new Date(now + 3_600_000) }, now)).toBe(250);
  });

  test("a quiet chain sleeps until just past its first pending deadline, at most the backstop", () => {
    expect(chainWatchSleepMs({ pollIntervalMs: 250, quiet: true, firstDeadline: new Date(now + 10_000) }, now)).toBe(10_500);
    expect(chainWatchSleepMs({ pollIntervalMs: 250, quiet: true, firstDeadline: null }, now)).toBe(quietChainBackstopMs);
    expect(chainWatchSleepMs({ pollIntervalMs: 250, quiet: true, firstDeadline: new Date(now + 3_600_000) }, now)).toBe(quietChainBackstopMs);
  });

  test("an order past its deadline but not yet judged is polled for, never sooner than the chain's interval", () => {
    expect(quietChainSleepMs(new Date(now - 1), now)).toBe(quietChainPollMs);
    expect(quietChainSleepMs(new Date(now + 100), now)).toBe(1_000);
    expect(chainWatchSleepMs({ pollIntervalMs: 20_000, quiet: true, firstDeadline: new Date(now - 1) }, now)).toBe(20_000);
  });
});

describe("whether a tick was busy", () => {
  test("an idle tick was not", () => {
    expect(tickWasBusy(idleTick)).toBe(false);
  });

  test("new blocks, a reset, attributed money, internal deposits, a transition or a reorg make it busy", () => {
    expect(tickWasBusy({ ...idleTick, scan: { ...idleTick.scan, toBlock: 11n } })).toBe(true);
    expect(tickWasBusy({ ...idleTick, scan: { ...idleTick.scan, reset: true } })).toBe(true);
    expect(tickWasBusy({ ...idleTick, attributed: { transfers: 1, refunds: 0, remaining: false } })).toBe(true);
    expect(tickWasBusy({ ...idleTick, internalDeposits: 1 })).toBe(true);
    expect(tickWasBusy({ ...idleTick, reorg: { dropped: 1, atRisk: [], sweepsRequeued: 0 } })).toBe(true);
    expect(tickWasBusy({ ...idleTick, reorg: { dropped: 0, atRisk: [], sweepsRequeued: 1 } })).toBe(true);
  });
});

describe("whether a tick may leave money to sweep", () => {
  test("a transition, attributed money, internal deposits or a requeued sweep may; an idle tick or a failed one with nothing done may not", () => {
    expect(mayLeaveMoneyToSweep(idleTick)).toBe(false);
    expect(mayLeaveMoneyToSweep({})).toBe(false);
    expect(mayLeaveMoneyToSweep({ lifecycle: { transitions: [{ orderId: "o", from: "processing", to: "confirmed" }] as never } })).toBe(true);
    expect(mayLeaveMoneyToSweep({ attributed: { transfers: 2, refunds: 0, remaining: false } })).toBe(true);
    expect(mayLeaveMoneyToSweep({ internalDeposits: 1 })).toBe(true);
    expect(mayLeaveMoneyToSweep({ reorg: { dropped: 0, atRisk: [], sweepsRequeued: 1 } })).toBe(true);
  });
});
