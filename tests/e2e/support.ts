/** Talks to the running sandbox app over its real HTTP API, as a merchant backend would. */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";

/** The project whose tests have a server and devnet to themselves, one test at a time (named so in playwright.config.ts). */
const quietChainProject = "quiet-chain";

/** The server the running test talks to: the quiet-chain project's own, or the one every other spec shares. */
export function baseUrl(): string {
  const shared = process.env.E2E_BASE_URL;
  if (!shared) throw new Error("E2E_BASE_URL is not set: run through `playwright test` (tests/e2e/global-setup.ts)");
  if (test.info().project.name === quietChainProject) return process.env.E2E_QUIET_BASE_URL ?? shared;
  return shared;
}

/**
 * axe-core with the given rule tags on the page as it is now. By default @axe-core/playwright runs axe in every frame
 * (`runPartial`) and merges the results in a new blank page it opens for each scan (`finishRun`), which is how it
 * reaches cross-origin iframes; a page with no iframe gets the same rules on the same document from `axe.run` in the
 * page itself ("legacy mode"), without the extra page: 0.5–0.8 s against 0.9–1.7 s per scan here. A page that has
 * an iframe keeps the default.
 */
export async function axeScan(page: Page, tags: string[]) {
  // Next streams a page's generateMetadata title; right after a server action re-renders the page, React can hold the
  // document without a <title> for a moment while it swaps the old one for the new. Scan the page once it has one.
  await expect.poll(() => page.title(), { message: "the page has a title before axe scans it" }).not.toBe("");
  return new AxeBuilder({ page })
    .withTags(tags)
    .setLegacyMode(page.frames().length === 1)
    .analyze();
}

/** The customer pages' check: no axe violation of WCAG 2.1 A and AA or of axe's best practices, each listed with its impact. */
export async function expectNoAxeViolations(page: Page) {
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** One call of the app's HTTP API, with a bearer token when given; the body parsed (null when empty). */
export async function api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function expectStatus(res: { status: number; body: unknown }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

export interface Merchant {
  token: string;
  shopName: string;
}

/** Registers and logs in a merchant, and configures its base wallet (threshold 3 confirmations). */
export async function createMerchant(shopName = "Lighthouse Books"): Promise<Merchant> {
  const username = `e2e_${randomBytes(5).toString("hex")}`;
  const password = "correct horse battery staple";
  expectStatus(await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: shopName }), 201, "register");
  const login = await api("POST", "/api/auth/login/", { username, password });
  expectStatus(login, 200, "login");
  const token = login.body.access as string;
  const wallet = await api(
    "POST",
    "/api/merchant-wallets/",
    { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 3, is_active: true },
    token,
  );
  expectStatus(wallet, 201, "wallet");
  return { token, shopName };
}

let nonce = Date.now();

/** Configures another wallet of the merchant (e.g. 3 = polygon), threshold 1. */
export async function addWallet(merchant: Merchant, blockchain: number): Promise<void> {
  const res = await api(
    "POST",
    "/api/merchant-wallets/",
    { blockchain, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 1, is_active: true },
    merchant.token,
  );
  expectStatus(res, 201, "wallet");
}

export interface OrderInput {
  price_amount?: string;
  price_currency?: string;
  accepted_methods?: { blockchain: string; currency: string }[];
  amount?: string;
  currency?: string;
  redirect_url?: string;
  expires_at?: string;
  order_info?: string;
  webhook_url?: string;
}

/** Creates a payment order on base (the devnet in sandbox). */
export async function createOrder(merchant: Merchant, input: OrderInput = {}) {
  const res = await api(
    "POST",
    "/api/payment-orders/",
    { amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"E2E-1"}', nonce: nonce++, ...input },
    merchant.token,
  );
  expectStatus(res, 201, "create order");
  return res.body.data as {
    order_id: string;
    nonce: number;
    receiving_address: string;
    payment_url: string;
    amount: string;
    currency: string;
    accepted_methods: { blockchain: string; currency: string; amount: string; receiving_address: string }[];
  };
}

/** The merchant's view of an order. */
export async function getOrder(merchant: Merchant, orderId: string) {
  const res = await api("GET", `/api/payment-orders/${orderId}/`, undefined, merchant.token);
  expectStatus(res, 200, "get order");
  return res.body.data;
}

/** The public status the page polls. */
export async function getPublicOrder(orderId: string) {
  const res = await api("GET", `/api/pay/${orderId}/`);
  expectStatus(res, 200, "public order");
  return res.body.data;
}

/** Test tokens (or native coin) to any address from the sandbox faucet. */
export async function faucet(merchant: Merchant, address: string, currency: string, amount: string) {
  expectStatus(await api("POST", "/api/sandbox/faucet/", { address, currency, amount, blockchain: "base" }, merchant.token), 200, "faucet");
}

/**
 * Details of a test that watches an order step through its confirmations ("Payment seen", "1 of 3"):
 * every devnet transaction mines a block, so a test paying beside it would skip those states. The tag
 * puts it in the quiet-chain project (playwright.config.ts), which runs such tests one at a time on a
 * server and devnet no other test uses, beside the other projects. Against a server given from outside
 * with no quiet one (E2E_BASE_URL without E2E_QUIET_BASE_URL), it runs while no other test does.
 */
export const quietChain = {
  tag: "@quiet-chain",
  ...(process.env.E2E_BASE_URL && !process.env.E2E_QUIET_BASE_URL ? { lock: "-exclusive-" } : {}),
};

/**
 * The status panel shows the transaction the customer's wallet (or the gasless relay) sent. The wallet
 * panel shows it too, but only until the status poll sees the payment and removes that panel (nothing is
 * left to pay): whether it ever renders it is a race between the poll and the wallet's answer.
 */
export async function expectTransactionShown(page: Page, hash: string) {
  await expect(page.getByTestId("tx-hash")).toHaveAttribute("title", hash);
}
