/**
 * Issue 52 item 5: axe finds nothing serious on any page, in light and in dark (prefers-color-scheme),
 * on a desktop (1280×800) and a phone (390×844): the landing page, the API reference (Scalar) and
 * every docs page, the auth pages, every dashboard page (signed in, with an order paid on the sandbox
 * devnet, its transaction and a webhook endpoint to open) and the customer pages (pay, receipt, link,
 * invoice, unsubscribe). The API reference is held to every rule like the rest: its contrast comes from
 * app/docs/api-reference.tsx's theme, the markup axe found serious in Scalar's (sidebar entries, icon buttons,
 * the client tabs, endpoint lists) is repaired by app/docs/scalar-markup.ts.
 */
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { api, axeScan, baseUrl, getPublicOrder } from "./support";

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** axe on the page as it is: the serious and critical findings (WCAG 2.1 A and AA), each with where it is. */
async function seriousFindings(page: Page, name: string): Promise<string[]> {
  const results = await axeScan(page, wcag);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.nodes.length}× → ${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

interface Fixture {
  username: string;
  password: string;
  orderId: string;
  paidOrderId: string;
  txHash: string;
  endpointId: string;
  linkId: string;
  invoiceId: string;
  subscriptionId: string;
  planId: string;
}

let fixture: Fixture;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const username = `axe_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Axe Shop" })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  const wallet = { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 1, is_active: true };
  expect((await api("POST", "/api/merchant-wallets/", wallet, token)).status).toBe(201);
  const order = (body: Record<string, unknown>) =>
    api(
      "POST",
      "/api/payment-orders/",
      { amount: "3", currency: "USDC", blockchain: "base", order_info: "{}", nonce: Date.now() * 1000 + Math.floor(Math.random() * 1000), ...body },
      token,
    );
  const open = await order({ redirect_url: "https://shop.example/back" });
  const paid = await order({ amount: undefined, price_amount: "3.00", price_currency: "USD" });
  expect(paid.status).toBe(201);
  const paidOrderId = paid.body.data.order_id as string;
  expect((await api("POST", `/api/sandbox/payment-orders/${paidOrderId}/pay/`, {}, token)).status).toBe(201);
  await expect.poll(async () => (await getPublicOrder(paidOrderId)).status, { timeout: 60_000 }).toBe("confirmed");
  const txHash = (await getPublicOrder(paidOrderId)).transaction_hash as string;
  // The sandbox's own inbox: a webhook URL this server can resolve and reach.
  const inbox = (await api("GET", "/api/sandbox/inbox/", undefined, token)).body.inbox_url as string;
  const endpoint = await api("POST", "/api/webhook-endpoints/", { url: inbox }, token);
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const link = await api(
    "POST",
    "/api/payment-links/",
    { title: "Axe ticket", price_amount: "12.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }] },
    token,
  );
  expect(link.status).toBe(201);
  const invoice = await api(
    "POST",
    "/api/invoices/",
    {
      client: { name: "Ada Client", email: "ada@example.com" },
      items: [{ description: "Design work", quantity: "2", unit_price: "40.00" }],
      currency: "USD",
      due_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
      accepted_methods: [{ blockchain: "base", currency: "USDC" }],
    },
    token,
  );
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  const invoiceId = invoice.body.data.id as string;
  expect((await api("POST", `/api/invoices/${invoiceId}/send/`, {}, token)).status).toBe(200);
  // An active plan shows the dashboard's "Create a subscription" form; its subscription, the subscribe page.
  const plan = await api(
    "POST",
    "/api/subscription-plans/",
    // Its public link on: the plan's public page, and the dashboard's plan list with the link and Copy.
    { name: "Axe beans", blockchain: "base", currency: "USDC", amount: "9.00", interval_days: 30, public_link: true },
    token,
  );
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const subscription = await api(
    "POST",
    "/api/subscriptions/",
    { plan: plan.body.data.id, customer_address: "0x000000000000000000000000000000000000dEaD" },
    token,
  );
  expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);
  fixture = {
    subscriptionId: subscription.body.data.id,
    planId: plan.body.data.id,
    username,
    password,
    orderId: open.body.data.order_id,
    paidOrderId,
    txHash,
    endpointId: String(endpoint.body.data.id),
    linkId: link.body.data.id,
    invoiceId,
  };
});

const publicPages = () => [
  "/",
  "/docs",
  "/docs/quick-start",
  "/docs/webhooks",
  "/docs/pricing",
  "/docs/pay-button",
  "/docs/connect-your-shop",
  "/docs/sandbox",
  "/docs/errors",
  "/docs/screening",
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/invite",
  `/pay/${fixture.orderId}`,
  `/pay/${fixture.paidOrderId}`,
  `/pay/${fixture.paidOrderId}/receipt`,
  `/link/${fixture.linkId}`,
  `/invoice/${fixture.invoiceId}`,
  `/subscribe/${fixture.subscriptionId}`,
  `/subscribe/plan/${fixture.planId}`,
  "/docs/invoices",
  "/docs/subscriptions",
  "/unsubscribe",
];

const dashboardPages = () => [
  "/dashboard",
  "/dashboard/orders",
  `/dashboard/orders/${fixture.paidOrderId}`,
  "/dashboard/transactions",
  `/dashboard/transactions/${fixture.txHash}`,
  "/dashboard/links",
  "/dashboard/invoices",
  "/dashboard/subscriptions",
  `/dashboard/subscriptions/${fixture.subscriptionId}`,
  "/dashboard/payouts",
  "/dashboard/wallets",
  "/dashboard/currencies",
  "/dashboard/api-keys",
  "/dashboard/webhooks",
  `/dashboard/webhooks/${fixture.endpointId}`,
  "/dashboard/branding",
  "/dashboard/screening",
  "/dashboard/team",
  "/dashboard/sessions",
  "/dashboard/audit-log",
  "/dashboard/outbox",
  "/dashboard/settings",
  "/dashboard/sandbox",
];

/** Opens `path` and waits until it has drawn what axe should see (Scalar renders the API reference in the browser). */
async function open(page: Page, path: string) {
  const response = await page.goto(`${baseUrl()}${path}`);
  expect(response?.status(), path).toBeLessThan(400);
  if (path === "/docs") {
    const reference = page.locator(".scalar-api-reference");
    await expect(reference).toBeVisible({ timeout: 30_000 });
    await expect(reference.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  }
  await page.waitForLoadState("load");
  if (path.startsWith("/pay/") && !path.endsWith("/receipt")) await expect(page.getByTestId("status")).toBeVisible();
}

for (const scheme of ["light", "dark"] as const) {
  for (const device of [
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
    { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ]) {
    test.describe(`${scheme}, on a ${device.name}`, () => {
      test.use({ ...device.use, colorScheme: scheme });

      test("every public, docs, auth and customer page: no serious axe finding", async ({ page }) => {
        test.setTimeout(240_000);
        const findings: string[] = [];
        for (const path of publicPages()) {
          await open(page, path);
          findings.push(...(await seriousFindings(page, path)));
        }
        expect(findings).toEqual([]);
      });

      test("every dashboard page: no serious axe finding", async ({ page }) => {
        test.setTimeout(240_000);
        await page.goto(`${baseUrl()}/sign-in`);
        await page.getByLabel("Username").fill(fixture.username);
        await page.getByLabel("Password").fill(fixture.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await expect(page).toHaveURL(`${baseUrl()}/dashboard`);
        const findings: string[] = [];
        for (const path of dashboardPages()) {
          await open(page, path);
          findings.push(...(await seriousFindings(page, path)));
        }
        expect(findings).toEqual([]);
      });
    });
  }
}
