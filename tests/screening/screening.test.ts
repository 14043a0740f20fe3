/**
 * Screening of payers and refund destinations (issue 56) on the real devnet: the SDN loader on a
 * sample in the list's published format, a payment from a listed address held (dashboard, release
 * by an owner only, payment.confirmed once after), the `record` policy, refunds to a listed address
 * refused, and the provider hook's timeout with fail-open and fail-closed.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseAbi, parseUnits, type Address, type Hex } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as listEvents } from "@/app/api/events/route";
import { releaseHeldPaymentAction, setScreeningPolicyAction } from "@/app/(dashboard)/dashboard/screening/actions";
import { listAuditEntries } from "@/lib/audit/queries";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { loadScreeningOverview } from "@/lib/dashboard/screening";
import { loadSanctionsList } from "@/lib/screening/load-list";
import { screenAddress } from "@/lib/screening/screen-address";
import { parseSdnXml, SanctionsListFormatError } from "@/lib/screening/sdn-list";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const sample = readFileSync(path.join(__dirname, "fixtures/sdn-sample.xml"), "utf8");
/** Devnet account 9: listed in the sample as "EXAMPLE MIXER SERVICE". */
const listedPayer = devnetAccounts[9];
const listedRefundAddress = "0x00000000000000000000000000000000005eed02";

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
const erc20 = parseAbi(["function transfer(address,uint256) returns (bool)", "function mint(address,uint256)"]);

const fetchOrder = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
};
const eventsOf = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number }[]).sort((a, b) => a.sequence - b.sequence).map((e) => e.event);
};

/** What each event of the order carried of its screening (`data.screening.status`), in order. */
const screeningInEvents = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number; data: { screening: { status: string; list_date: string | null } } }[])
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => `${e.event}:${e.data.screening.status}:${e.data.screening.list_date}`);
};

/** A USDC order on base paid in full by `payer` (minted to it first), seen and one block deep. */
async function paidBy(merchant: TestMerchant, payer: { address: Address; privateKey: Hex }) {
  const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
  const wallet = net.wallet(payer.privateKey);
  await wallet.writeContract({ address: devnetContracts.USDC, abi: erc20, functionName: "mint", args: [payer.address, parseUnits("10", 6)] });
  await wallet.writeContract({
    address: devnetContracts.USDC,
    abi: erc20,
    functionName: "transfer",
    args: [order.receiving_address as Address, parseUnits("10", 6)],
  });
  await tick();
  await net.testClient().mine({ blocks: 1 });
  await tick();
  return order;
}

async function merchantWithWallet() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 2 });
  return merchant;
}

describe("the SDN list loader", () => {
  test("reads the published format: the publish date, every party, EVM addresses of any currency tag, other chains skipped", () => {
    const list = parseSdnXml(sample);
    expect(list).toMatchObject({ source: "OFAC SDN", publishedOn: "2026-11-20", entries: 3, otherChainAddresses: 1 });
    expect(list.addresses).toEqual([
      {
        address: listedPayer.address.toLowerCase(),
        listedPartyId: "90001",
        listedPartyName: "EXAMPLE MIXER SERVICE",
        currency: "ETH",
        programs: "CYBER2,DPRK3",
      },
      {
        address: "0x00000000000000000000000000000000005eed01",
        listedPartyId: "90001",
        listedPartyName: "EXAMPLE MIXER SERVICE",
        currency: "USDT",
        programs: "CYBER2,DPRK3",
      },
      { address: listedRefundAddress, listedPartyId: "90002", listedPartyName: "Jane EXAMPLE", currency: "ETH", programs: "CYBER2" },
    ]);
  });

  test("refuses a file that is not SDN.XML", () => {
    expect(() => parseSdnXml("<consolidatedList></consolidatedList>")).toThrow(SanctionsListFormatError);
    expect(() => parseSdnXml("<sdnList><publshInformation><Publish_Date>someday</Publish_Date></publshInformation></sdnList>")).toThrow(/Publish_Date/);
  });

  test("a load replaces the list: screening sees the new one only", async () => {
    await loadSanctionsList(testDb.db, sample.replace(listedRefundAddress, "0x00000000000000000000000000000000005eed03"));
    expect(await screenAddress(testDb.db, listedRefundAddress, { provider: null })).toEqual({ listed: false });
    const { load } = await loadSanctionsList(testDb.db, sample);
    expect(load).toMatchObject({ publishedOn: "2026-11-20", entries: 3, addresses: 3 });
    expect(await screenAddress(testDb.db, listedRefundAddress.toUpperCase().replace("0X", "0x"), { provider: null })).toMatchObject({
      listed: true,
      matchedBy: "sanctions_list",
      reason: expect.stringContaining("Jane EXAMPLE"),
    });
    expect(await screenAddress(testDb.db, "0x00000000000000000000000000000000005eed03", { provider: null })).toEqual({ listed: false });
  });
});

describe("payers", () => {
  test("a payment from a listed address is held: flagged, shown in the dashboard, released by an owner only, then confirmed once", async () => {
    await loadSanctionsList(testDb.db, sample);
    const merchant = await merchantWithWallet();
    const order = await paidBy(merchant, listedPayer);
    // The creation response: no payer yet, against the list loaded (read by the insert statement itself).
    expect(order.screening).toEqual({ status: "clear", list_date: "2026-11-20" });
    await tick();
    // Flagged as the transfer is recorded, before the lifecycle judges the order.
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      status: "processing",
      amount_received: "10",
      screening: { status: "held", list_date: "2026-11-20" },
    });
    expect(await eventsOf(merchant, order.order_id)).toEqual(["payment.flagged", "payment.pending"]);

    const overview = await loadScreeningOverview(testDb.db, merchant.id);
    expect(overview.list).toMatchObject({ source: "OFAC SDN", publishedOn: "2026-11-20" });
    expect(overview.held).toEqual([
      expect.objectContaining({ orderId: order.order_id, payer: listedPayer.address, matchedBy: "sanctions_list", action: "hold", amount: "10 USDC" }),
    ]);

    // A developer cannot release it; an owner can.
    signInAs(merchant, { accountId: merchant.id, role: "developer" });
    const refused = await releaseHeldPaymentAction({ order_id: order.order_id });
    expect(refused).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_PERMISSIONS" } });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");

    signInAs(merchant);
    expect(await releaseHeldPaymentAction({ order_id: order.order_id })).toMatchObject({ ok: true, data: { orderId: order.order_id, released: 1 } });
    expect(await releaseHeldPaymentAction({ order_id: order.order_id })).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    await tick();
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", screening: { status: "released", list_date: "2026-11-20" } });
    expect(await eventsOf(merchant, order.order_id)).toEqual(["payment.flagged", "payment.pending", "payment.confirmed"]);
    // The webhooks carry it too: held while held, released in the one payment.confirmed.
    expect(await screeningInEvents(merchant, order.order_id)).toEqual([
      "payment.flagged:held:2026-11-20",
      "payment.pending:held:2026-11-20",
      "payment.confirmed:released:2026-11-20",
    ]);
    expect((await loadScreeningOverview(testDb.db, merchant.id)).held).toEqual([]);
    const audit = await listAuditEntries(testDb.db, merchant.id, {}, { limit: 10, offset: 0 });
    expect(audit.rows.find((e) => e.action === "screening.payment_released")).toMatchObject({
      actor: merchant.username,
      target: `payment_order:${order.order_id}`,
    });
  });

  test("under the record policy the payment is flagged and confirmed as usual; an unlisted payer is not flagged", async () => {
    await loadSanctionsList(testDb.db, sample);
    const merchant = await merchantWithWallet();
    signInAs(merchant);
    expect(await setScreeningPolicyAction({ on_match: "record" })).toMatchObject({ ok: true });
    const flagged = await paidBy(merchant, listedPayer);
    const clean = await paidBy(merchant, devnetAccounts[8]);
    await tick();
    expect((await fetchOrder(merchant, flagged.order_id)).status).toBe("confirmed");
    expect(await eventsOf(merchant, flagged.order_id)).toEqual(["payment.flagged", "payment.pending", "payment.confirmed"]);
    expect(await eventsOf(merchant, clean.order_id)).toEqual(["payment.pending", "payment.confirmed"]);
    expect((await fetchOrder(merchant, flagged.order_id)).screening).toEqual({ status: "flagged", list_date: "2026-11-20" });
    expect((await fetchOrder(merchant, clean.order_id)).screening).toEqual({ status: "clear", list_date: "2026-11-20" });
    expect((await loadScreeningOverview(testDb.db, merchant.id)).held).toEqual([]);
  });

  test("under the refund policy the payment is never confirmed, cannot be released, and can be refunded", async () => {
    await loadSanctionsList(testDb.db, sample);
    const merchant = await merchantWithWallet();
    signInAs(merchant);
    await setScreeningPolicyAction({ on_match: "refund" });
    const order = await paidBy(merchant, listedPayer);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    expect(await releaseHeldPaymentAction({ order_id: order.order_id })).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    // Back to the payer's own, listed, address: refused; to another address the payer names: built.
    const toListed = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { to_address: listedPayer.address },
    });
    expect(toListed.status).toBe(400);
    expect(toListed.body.error.code).toBe("SANCTIONED_ADDRESS");
    const elsewhere = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { to_address: randomAddress() },
    });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);
  });
});

describe("refund destinations", () => {
  test("a refund to a listed address is refused with SANCTIONED_ADDRESS; to another it is built", async () => {
    await loadSanctionsList(testDb.db, sample);
    const merchant = await merchantWithWallet();
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status).toBe(201);
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    const refused = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { to_address: listedRefundAddress },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "SANCTIONED_ADDRESS", details: { to_address: [expect.stringContaining("sanctions list")] } });
    const built = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { to_address: randomAddress() },
    });
    expect(built.status).toBe(201);
  });
});

describe("the screening provider hook", () => {
  async function provider(answer: (address: string) => { delayMs?: number; status?: number; body?: unknown }): Promise<{ url: string; server: Server }> {
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        const { address } = JSON.parse(raw) as { address: string };
        const reply = answer(address);
        const send = () => {
          res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
          res.end(JSON.stringify(reply.body ?? {}));
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    return { url: `http://127.0.0.1:${port}/screen`, server };
  }

  test("the provider's answer counts for addresses the list does not hold; a timeout fails open or closed as configured", async () => {
    await loadSanctionsList(testDb.db, sample);
    const flaggedByProvider = randomAddress();
    const slow = randomAddress();
    const { url, server } = await provider((address) =>
      address.toLowerCase() === flaggedByProvider.toLowerCase()
        ? { body: { sanctioned: true, reason: "high risk" } }
        : address.toLowerCase() === slow.toLowerCase()
          ? { delayMs: 5_000, body: { sanctioned: false } }
          : { body: { sanctioned: false } },
    );
    try {
      const closed = { url, timeoutMs: 200, onFailure: "closed" as const };
      expect(await screenAddress(testDb.db, flaggedByProvider, { provider: closed })).toEqual({ listed: true, matchedBy: "provider", reason: "high risk" });
      expect(await screenAddress(testDb.db, randomAddress(), { provider: closed })).toEqual({ listed: false });
      expect(await screenAddress(testDb.db, slow, { provider: closed })).toMatchObject({
        listed: true,
        matchedBy: "provider",
        reason: expect.stringContaining("fail-closed"),
      });
      expect(await screenAddress(testDb.db, slow, { provider: { ...closed, onFailure: "open" } })).toEqual({ listed: false });
      // The list answers first: no call to the provider needed.
      expect(await screenAddress(testDb.db, listedRefundAddress, { provider: closed })).toMatchObject({ matchedBy: "sanctions_list" });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
