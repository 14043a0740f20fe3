/** A contract (internal) payment to an order already confirmed is recorded, visible by its hash, before the sweep flushes it. */
import { describe, expect, test } from "vitest";
import { parseEther, type Address } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { chainClient } from "@/lib/chains/clients";
import { internalSenderArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { findOrderSweep } from "@/lib/chains/queries";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

describe("(b) a contract payment to an already settled order is recorded before the sweep flushes it", () => {
  const client = () => chainClient(net.chain("base"));
  const tick = () => watchChainTick(testDb.db, net.chain("base"), client(), { checkInternalDeposits: true });

  async function fetchOrder(merchant: TestMerchant, orderId: string) {
    const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  test("a confirmed order paid again by an internal transfer: the transfer is visible by its hash and the sweep is armed", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "ETH" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    for (let i = 0; i < 20 && (await fetchOrder(merchant, order.order_id)).status !== "confirmed"; i++) {
      await net.testClient().mine({ blocks: 1 });
      await tick();
    }
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    expect((await findOrderSweep(testDb.db, (await fetchOrder(merchant, order.order_id)).id))?.status).toBe("pending");

    const payer = net.wallet(devnetAccounts[8].privateKey);
    const deployed = await client().waitForTransactionReceipt({
      hash: await payer.deployContract({ abi: internalSenderArtifact.abi, bytecode: internalSenderArtifact.bytecode }),
    });
    const hash = await payer.writeContract({
      address: deployed.contractAddress!,
      abi: internalSenderArtifact.abi,
      functionName: "send",
      args: [order.receiving_address as Address],
      value: parseEther("0.25"),
    });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
    await tick();

    const seen = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.data).toMatchObject({ amount: "0.25", currency: "ETH", payment_order: { order_id: order.order_id } });
  });
});
