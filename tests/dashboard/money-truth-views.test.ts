/**
 * Every amount means one thing everywhere (issue 52): a late payment, a payment of another token and
 * a payment reversed by a reorg, made for real on the devnet, read back from the API, the webhooks'
 * payloads, the customer's view and the dashboard's pages (rendered to HTML): what arrived beside
 * what counted, why the rest did not count, and the reversal wherever the payment shows.
 */
import { describe, expect, test, vi } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { checkoutView } from "@/lib/orders/checkout-view";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { wordsFor } from "../helpers/translate";
import { signInAs } from "./session";
import { renderPage } from "../helpers/next-intl-server-en";

const renderToStaticMarkup = renderPage;

// The pages' client components (the create-order form) ask for the app router, which a static render has not mounted.
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/navigation")>()),
  useRouter: () => ({
    push: () => undefined,
    replace: () => undefined,
    refresh: () => undefined,
    prefetch: () => undefined,
    back: () => undefined,
    forward: () => undefined,
  }),
  usePathname: () => "/dashboard/orders",
  useSearchParams: () => new URLSearchParams(),
}));

// The pages read their words with next-intl's server functions, which need a Next request: here, the English messages.
vi.mock("next-intl/server", () => import("../helpers/next-intl-server-en"));

const { default: OrdersPage } = await import("@/app/(dashboard)/dashboard/orders/page");
const { default: OrderDetailPage } = await import("@/app/(dashboard)/dashboard/orders/[orderId]/page");
const { default: OverviewPage } = await import("@/app/(dashboard)/dashboard/page");

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = (now?: Date) => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true, ...(now ? { now: () => now } : {}) });

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.transaction_hash as string;
}

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function fetchPublic(orderId: string) {
  const res = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function eventData(merchant: TestMerchant, orderId: string) {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number; data: Record<string, unknown> }[]).sort((a, b) => a.sequence - b.sequence);
}

async function chainNow(): Promise<number> {
  const latest = await client().getBlock({ blockTag: "latest" });
  return Math.max(Date.now(), Number(latest.timestamp) * 1000 + 1000);
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");
const checkout = wordsFor("checkout");

describe("what arrived, what counted and why, on every surface", () => {
  test("a late payment, another token and a reversed payment: API, webhooks, the customer's view, the orders list, its filter, the order page and the overview", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 5 });

    // Reversed: seen (processing), then a shallow reorg takes it: pending again, waiting for the payment.
    const reversed = await createOrder(merchant, { amount: "5", currency: "USDC", blockchain: "base" });
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const reversedHash = await pay(merchant, reversed.order_id);
    await tick();
    expect((await fetchOrder(merchant, reversed.order_id)).status).toBe("processing");
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 3 });
    await tick();

    // Another token to an open order: recorded, not counted.
    const wrong = await createOrder(merchant, { amount: "3", currency: "USDC", blockchain: "base" });
    const wrongHash = await pay(merchant, wrong.order_id, { currency: "USDT", amount: "1" });

    // Late: the order's token after its deadline.
    const expiresAt = new Date((await chainNow()) + 5_000);
    const late = await createOrder(merchant, { amount: "4", currency: "USDC", blockchain: "base", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    await testClient.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(expiresAt.getTime() / 1000) + 60) });
    const lateHash = await pay(merchant, late.order_id, { amount: "20" });
    await tick(new Date(expiresAt.getTime() + 70_000));

    // The API: additive fields beside the spec's.
    expect(await fetchOrder(merchant, late.order_id)).toMatchObject({
      status: "failed",
      failure_reason: "late_payment",
      amount_received: "0",
      amount_arrived: "20",
      amount_counted: "0",
      not_counted: [{ transaction_hash: lateHash, amount: "20", currency: "USDC", reason: "after_expiry" }],
      payment_reversed: false,
    });
    expect(await fetchOrder(merchant, wrong.order_id)).toMatchObject({
      status: "pending",
      amount_arrived: "0",
      amount_counted: "0",
      not_counted: [{ transaction_hash: wrongHash, amount: "1", currency: "USDT", reason: "wrong_asset" }],
    });
    expect(await fetchOrder(merchant, reversed.order_id)).toMatchObject({
      status: "pending",
      at_risk: false,
      amount_counted: "0",
      not_counted: [{ transaction_hash: reversedHash, reason: "reorged" }],
      payment_reversed: true,
    });

    // The webhooks say the same: payment.failed carries the late money, payment.reorged the reversal.
    const lateEvents = await eventData(merchant, late.order_id);
    expect(lateEvents.map((e) => e.event)).toEqual(["payment.expired", "payment.failed"]);
    expect(lateEvents[1]!.data).toMatchObject({
      amount_arrived: "20",
      amount_counted: "0",
      not_counted: [{ transaction_hash: lateHash, reason: "after_expiry" }],
    });
    const reorgEvents = await eventData(merchant, reversed.order_id);
    expect(reorgEvents.map((e) => e.event)).toEqual(["payment.pending", "payment.reorged"]);
    expect(reorgEvents[0]!.data).toMatchObject({ payment_reversed: false, amount_counted: "5" });
    expect(reorgEvents[1]!.data).toMatchObject({ status: "pending", payment_reversed: true, amount_counted: "0" });

    // The customer: what arrived, the transaction, what happens next; the reversal, and that it is awaited again.
    const latePublic = await fetchPublic(late.order_id);
    expect(latePublic).toMatchObject({
      amount_arrived: "20",
      not_counted: [{ transaction_hash: lateHash, amount: "20", currency: "USDC", reason: "after_expiry" }],
      payment_reversed: false,
    });
    const lateView = checkoutView(latePublic, checkout);
    expect(lateView.result!.lines.join(" ")).toContain("20 USDC arrived after the payment window had closed");
    expect(lateView.result!.lines.join(" ")).toContain("can refund it");
    expect(lateView.notice!.transactions).toEqual([{ hash: lateHash, url: null }]);
    const reversedView = checkoutView(await fetchPublic(reversed.order_id), checkout);
    expect(reversedView.panel).toBe("pay");
    expect(reversedView.notice).toMatchObject({
      tone: "bad",
      lines: [expect.stringContaining("The network reversed this payment; waiting for it again")],
      transactions: [{ hash: reversedHash }],
    });
    const wrongView = checkoutView(await fetchPublic(wrong.order_id), checkout);
    expect(wrongView.panel).toBe("pay");
    expect(wrongView.notice!.lines.join(" ")).toContain("1 USDT arrived, but this order is paid in USDC");
    expect(wrongView.notice!.transactions).toEqual([{ hash: wrongHash, url: null }]);

    // The dashboard: the list shows counted beside arrived, the reason and the reversal badge.
    signInAs(merchant);
    const list = text(renderToStaticMarkup(await OrdersPage({ searchParams: Promise.resolve({}) })));
    expect(list).toContain("Counted · arrived");
    expect(list).toMatch(new RegExp(`${late.order_id} .*?0 USDC \\+ 20 USDC late`));
    expect(list).toMatch(new RegExp(`${wrong.order_id} .*?0 USDC \\+ 1 USDT wrong asset`));
    expect(list).toMatch(new RegExp(`${reversed.order_id} pending reversed by reorg`));
    // Its filters: the reversed payments, and the money that did not count.
    const reversedOnly = text(renderToStaticMarkup(await OrdersPage({ searchParams: Promise.resolve({ money: "reversed" }) })));
    expect(reversedOnly).toContain("1 order");
    expect(reversedOnly).toContain(reversed.order_id);
    expect(reversedOnly).not.toContain(late.order_id);
    const uncounted = text(renderToStaticMarkup(await OrdersPage({ searchParams: Promise.resolve({ money: "not_counted" }) })));
    expect(uncounted).toContain("2 orders");
    expect(uncounted).toContain(late.order_id);
    expect(uncounted).toContain(wrong.order_id);

    // The order page: counted and arrived, side by side, with why.
    const detail = text(renderToStaticMarkup(await OrderDetailPage({ params: Promise.resolve({ orderId: late.order_id }) })));
    expect(detail).toContain("Counted 0 USDC");
    expect(detail).toContain(`Arrived 20 USDC 20 USDC did not count: late ( ${lateHash} )`);
    const reversedDetail = text(renderToStaticMarkup(await OrderDetailPage({ params: Promise.resolve({ orderId: reversed.order_id }) })));
    expect(reversedDetail).toContain("took this order's payment back");

    // The overview's total of reversed payments.
    const overview = text(renderToStaticMarkup(await OverviewPage()));
    expect(overview).toContain("Reversed by a reorg 1 order: 5 USDC (base)");
  });
});
