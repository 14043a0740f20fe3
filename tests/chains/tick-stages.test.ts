import { describe, expect, test } from "vitest";
import { custom, type PublicClient } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient, createChainClient } from "@/lib/chains/clients";
import { findCursorUpdatedAt } from "@/lib/chains/queries";
import { scanChain } from "@/lib/chains/scanner";
import { transfersOfInterest } from "@/lib/engine/attribute-transfers";
import { handleChainReset } from "@/lib/engine/chain-reset";
import { ChainTickFailed, StageWaitingToRetry, watchChainTick } from "@/lib/engine/chain-tick";
import { nativeWatch } from "@/lib/engine/native-watch";
import { findForkPoint } from "@/lib/engine/reorg-recheck";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const tick = (client: PublicClient = chainClient(base())) => watchChainTick(testDb.db, base(), client, { checkInternalDeposits: false });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  return (await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } })).body.data;
}

async function paidOrder(threshold: number) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  const order = await createOrder(merchant, { amount: "7", currency: "USDC" });
  const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
    token: merchant.access,
    params: { orderId: order.order_id },
    body: {},
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { merchant, order };
}

/** The real devnet client, with the methods named refused, and a count of every method asked. */
function clientRefusing(refused: string[]) {
  const real = chainClient(base());
  const asked = new Map<string, number>();
  const client = createChainClient(
    base(),
    custom({
      async request({ method, params }) {
        asked.set(method, (asked.get(method) ?? 0) + 1);
        if (refused.includes(method)) throw new Error(`${method} refused`);
        return real.request({ method, params } as never);
      },
    }),
  );
  return { client, asked };
}

describe("the chain tick as stages", () => {
  test("a scan that fails does not hold back the confirmation of a payment already recorded", async () => {
    const { merchant, order } = await paidOrder(3);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await net.testClient().mine({ blocks: 2 });

    // The provider refuses logs: the scan fails, the rest of the tick runs against the head it reads.
    const { client } = clientRefusing(["eth_getLogs"]);
    const failed = await tick(client).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ChainTickFailed);
    expect((failed as ChainTickFailed).failures.map((f) => f.stage)).toEqual(["scan"]);
    expect((failed as ChainTickFailed).message).toMatch(/scan stage failed: .*eth_getLogs refused|scan stage failed/);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  });

  test("what the scan recorded is attributed by the next stage without reading the chain again, and expiry waits for it", async () => {
    const { merchant, order } = await paidOrder(1);
    // The scan alone: the transfer is recorded with the cursor, not yet attributed.
    const scanned = await scanChain(testDb.db, base(), chainClient(base()), {
      onChainReset: handleChainReset,
      findForkPoint,
      nativeWatch,
      transfersOfInterest,
    });
    expect(scanned.transfers).toBe(1);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");
    // Until then no order on the chain is judged against its deadline: the chain counts as not seen.
    expect(await findCursorUpdatedAt(testDb.db, base().id)).toBeNull();

    // The next tick attributes it; the scan has nothing new to check: no receipt is fetched again.
    const { client, asked } = clientRefusing([]);
    const result = await tick(client);
    expect(result.scan.transfers).toBe(0);
    expect(result.attributed).toMatchObject({ transfers: 1, remaining: false });
    expect(asked.get("eth_getTransactionReceipt") ?? 0).toBe(0);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    expect(await findCursorUpdatedAt(testDb.db, base().id)).not.toBeNull();
  });

  test("a scan waiting out its own backoff is not run, the rest of the tick is, and the task is told to come back at the poll interval", async () => {
    const { merchant, order } = await paidOrder(2);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await net.testClient().mine({ blocks: 1 });

    const { client, asked } = clientRefusing([]);
    const retryAt = Date.now() + 30_000;
    const failed = await watchChainTick(testDb.db, base(), client, {
      checkInternalDeposits: true,
      waitingStages: new Map([["scan", { error: new Error("eth_getLogs refused"), retryAt }]]),
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ChainTickFailed);
    const tickFailed = failed as ChainTickFailed;
    expect(tickFailed.failures.map((f) => [f.stage, f.error instanceof StageWaitingToRetry])).toEqual([["scan", true]]);
    expect(tickFailed.message).toContain("eth_getLogs refused");
    expect(tickFailed.retryInMs).toBe(base().pollIntervalMs);
    expect(tickFailed.done.stagesRan).toEqual(["attribute", "head", "reorg-recheck", "orders", "refunds"]);
    expect(asked.get("eth_getLogs") ?? 0).toBe(0);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  });

  test("a tick whose head cannot be read names no early retry: the task backs off", async () => {
    const { client } = clientRefusing(["eth_blockNumber"]);
    const failed = await tick(client).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ChainTickFailed);
    expect((failed as ChainTickFailed).failures.map((f) => f.stage)).toContain("head");
    expect((failed as ChainTickFailed).retryInMs).toBeUndefined();
  });
});
