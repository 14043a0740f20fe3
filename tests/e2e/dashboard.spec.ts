import { mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { axeScan } from "./support";

/**
 * The merchant dashboard end to end (issue #8 › 11): sign up, wallet, API key used on the API,
 * webhook endpoint at the sandbox inbox, a test order paid and confirmed on the devnet, its
 * deliveries and a redelivery, key revocation, isolation between merchants, axe checks and a
 * screenshot of every page. The "dashboard" project of playwright.config.ts; the server is the one
 * tests/e2e/global-setup.ts starts for every spec (E2E_BASE_URL).
 */
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
const shots = "test-results/dashboard";
mkdirSync(shots, { recursive: true });

test.use({ baseURL });
test.describe.configure({ mode: "serial" });

const suffix = randomBytes(3).toString("hex");
const alice = { username: `alice_${suffix}`, email: `alice_${suffix}@example.com`, password: "correct horse battery", shop: "Alice's Shop" };
const bob = { username: `bob_${suffix}`, email: `bob_${suffix}@example.com`, password: "another horse battery", shop: "Bob's Shop" };
const walletAddress = privateKeyToAddress(generatePrivateKey());

const state = { apiKey: "", orderId: "", txHash: "", endpointId: "" };

/** axe-core (WCAG 2 A and AA) on the page as it is now, then a full-page screenshot. */
async function checkPage(page: Page, name: string) {
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const violations = results.violations.map((v) => `${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(violations, `accessibility violations on ${name}`).toEqual([]);
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

async function signUp(page: Page, who: typeof alice) {
  await page.goto("/sign-up");
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByLabel("Shop name").fill(who.shop);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

function api(request: APIRequestContext, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    get: (path: string) => request.get(path, { headers }),
    post: (path: string, data: unknown) => request.post(path, { headers, data }),
  };
}

test("the spec's static /api/auth routes still answer next to next-auth's catch-all", async ({ request }) => {
  const username = `api_${suffix}`;
  const registered = await request.post("/api/auth/register", {
    data: { username, email: `${username}@example.com`, password: "paper-lantern-4217", shop_name: "API" },
  });
  expect(registered.status()).toBe(201);
  expect((await registered.json()).user.username).toBe(username);
  const login = await request.post("/api/auth/login/", { data: { username, password: "paper-lantern-4217" } });
  expect(login.status()).toBe(200);
  const tokens = await login.json();
  expect(tokens.access).toEqual(expect.any(String));
  const verify = await request.get("/api/auth/verify/", { headers: { authorization: `Bearer ${tokens.access}` } });
  expect((await verify.json()).valid).toBe(true);
  const refreshed = await request.post("/api/auth/token/refresh/", { data: { refresh: tokens.refresh } });
  expect(refreshed.status()).toBe(200);
  expect((await refreshed.json()).access).toEqual(expect.any(String));
  // …and next-auth's own endpoints are served by the catch-all.
  const providers = await request.get("/api/auth/providers");
  expect(providers.status()).toBe(200);
  expect(await providers.json()).toHaveProperty("credentials");
});

test("protected pages redirect to sign-in; a wrong password is refused", async ({ page }) => {
  await page.goto("/dashboard/orders");
  await expect(page).toHaveURL(/\/sign-in/);
  await checkPage(page, "sign-in");
  await page.getByLabel("Username").fill("nobody_here");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toContainText("Invalid username or password");
  await page.goto("/sign-up");
  await checkPage(page, "sign-up");
});

test("merchant A: sign up, add a wallet, create an API key and use it", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page, alice);
  await checkPage(page, "overview-empty");

  await page.goto("/dashboard/wallets");
  const addWallet = page.getByRole("form", { name: "Add a wallet" });
  await addWallet.getByLabel("Blockchain").selectOption({ label: "Base (local devnet)" });
  await addWallet.getByLabel("Current password").fill(alice.password); // asked again for a payout address (issue 13)
  await addWallet.getByLabel("Wallet address").fill("0x1234");
  await addWallet.getByRole("button", { name: "Add wallet" }).click();
  await expect(addWallet.getByRole("alert")).toBeVisible();
  await addWallet.getByLabel("Wallet address").fill(walletAddress.toLowerCase());
  await addWallet.getByRole("button", { name: "Add wallet" }).click();
  await expect(page.getByText(walletAddress)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Base (local devnet)" })).toBeVisible();
  await checkPage(page, "wallets");

  await page.goto("/dashboard/api-keys");
  const create = page.getByRole("form", { name: "Create an API key" });
  await create.getByLabel("Name").fill("e2e backend");
  await create.getByLabel("Permissions").selectOption("full_access");
  await create.getByRole("button", { name: "Create key" }).click();
  const secret = page.getByTestId("api-key-secret");
  await expect(secret).toHaveText(/^sk_test_/);
  state.apiKey = (await secret.textContent())!.trim();
  await expect(page.getByText("shown only this once")).toBeVisible();
  await expect(page.locator("tr", { hasText: "e2e backend" })).toContainText("never");
  await checkPage(page, "api-keys");

  const wallets = await api(request, state.apiKey).get("/api/merchant-wallets/");
  expect(wallets.status()).toBe(200);
  expect((await wallets.json()).results[0].wallet_address).toBe(walletAddress);
});

test("merchant A: webhook endpoint at the sandbox inbox, a test order paid and confirmed, its deliveries, a redelivery", async ({ page, request }) => {
  test.setTimeout(210_000);
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/dashboard/webhooks");
  const inboxUrl = (await page.getByTestId("inbox-url").textContent())!.trim();
  const add = page.getByRole("form", { name: "Add an endpoint" });
  await add.getByLabel("URL").fill(inboxUrl);
  await add.getByLabel("Description").fill("sandbox inbox");
  await add.getByRole("button", { name: "Add endpoint" }).click();
  const endpoint = page.locator("[data-endpoint-id]");
  await expect(endpoint).toHaveCount(1);
  state.endpointId = (await endpoint.getAttribute("data-endpoint-id"))!;
  await endpoint.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByTestId("endpoint-secret")).toHaveText(/^whsec_/);
  await checkPage(page, "webhooks");

  await page.goto("/dashboard/sandbox");
  const order = page.getByRole("form", { name: "Create a test order" });
  await order.getByLabel("Blockchain").selectOption("base");
  await order.getByLabel("Currency").selectOption("USDC");
  await order.getByLabel("Amount").fill("10.50");
  await order.getByRole("button", { name: "Create test order" }).click();
  const created = order.getByTestId("action-result");
  await expect(created).toContainText("ORD-");
  state.orderId = JSON.parse((await created.textContent())!).order_id;
  await checkPage(page, "sandbox");

  const pay = page.getByRole("form", { name: "Simulate a payment" });
  await pay.getByLabel("Order id").fill(state.orderId);
  await pay.getByRole("button", { name: "Send payment" }).click();
  const paid = pay.getByTestId("action-result");
  await expect(paid).toContainText("transaction_hash", { timeout: 30_000 });
  state.txHash = JSON.parse((await paid.textContent())!).transaction_hash;

  const mine = page.getByRole("form", { name: "Mine blocks" });
  await mine.getByLabel("Blocks").fill("4");
  await mine.getByLabel("Blockchain").selectOption("base");
  await mine.getByRole("button", { name: "Mine" }).click();
  await expect(mine.getByTestId("action-result")).toContainText("block_number");

  // Watch it confirm in the orders table (mining one more block now and then in case the scanner lags).
  const keyed = api(request, state.apiKey);
  await page.goto(`/dashboard/orders?q=${state.orderId}`);
  await expect
    .poll(
      async () => {
        await page.reload();
        const status = await page.locator(`tr[data-order-id="${state.orderId}"] td`).nth(1).textContent();
        if (status?.trim() !== "confirmed") await keyed.post("/api/sandbox/mine/", { blocks: 1, blockchain: "base" });
        return status?.trim();
      },
      { timeout: 90_000, intervals: [1000, 2000, 3000] },
    )
    .toBe("confirmed");
  await page.goto("/dashboard/orders");
  await checkPage(page, "orders");

  // Its detail: timeline, transaction, deliveries to the inbox endpoint.
  await page.goto(`/dashboard/orders/${state.orderId}`);
  await expect(page.locator('[data-event="payment.pending"]')).toBeVisible();
  await expect(page.locator('[data-event="payment.confirmed"]')).toBeVisible();
  await expect(page.getByRole("link", { name: state.txHash })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open payment page" })).toHaveAttribute("href", new RegExp(`/pay/${state.orderId}$`));
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator('[data-delivery-id][data-status="succeeded"]').count();
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toBe(2);
  await checkPage(page, "order-detail");

  // Redeliver one: the same delivery gets a second attempt, and the inbox a second copy.
  const first = page.locator("[data-delivery-id]").first();
  const deliveryId = await first.getAttribute("data-delivery-id");
  await first.getByRole("button", { name: "Redeliver" }).click();
  await expect(first.getByText("Redelivery scheduled.")).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.reload();
        const delivery = page.locator(`[data-delivery-id="${deliveryId}"]`);
        return `${await delivery.getAttribute("data-status")} ${await delivery.locator("summary").textContent()}`;
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toBe("succeeded Request and response (2 attempts)");

  await page.goto(`/dashboard/webhooks/${state.endpointId}`);
  await expect(page.locator("[data-delivery-id]")).toHaveCount(2);
  await checkPage(page, "webhook-deliveries");
  await page.goto("/dashboard/webhooks");
  await expect(page.locator("[data-inbox-id]")).toHaveCount(3);
  await expect(page.getByText("signature valid").first()).toBeVisible();
  await expect(page.getByText("signature invalid")).toHaveCount(0);
  await checkPage(page, "webhooks-inbox");
});

/** The page is no wider than the viewport: nothing scrolls sideways. */
async function expectNoHorizontalOverflow(page: Page, name: string) {
  const { scrollWidth, clientWidth, widest } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The innermost elements sticking out on the right, to name the culprit in the failure.
    const out = [...document.querySelectorAll("body *")].filter(
      (e) => e.getBoundingClientRect().right > width + 0.5 && ![...e.children].some((c) => c.getBoundingClientRect().right > width + 0.5),
    );
    const describe = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.className ? "." + String(e.className).split(" ").join(".") : ""} (${Math.round(e.getBoundingClientRect().right)} px) "${(e.textContent ?? "").slice(0, 40)}"`;
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, widest: out.slice(0, 5).map(describe) };
  });
  expect(scrollWidth, `${name} is ${scrollWidth} px wide in a ${clientWidth} px viewport: ${widest.join("; ")}`).toBeLessThanOrEqual(clientWidth);
}

test("every dashboard page, with data, at 390×844 and 1280×800: no sideways scrolling and no axe violations", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Docs and dashboard lead to each other (issue 29).
  await expect(page.getByRole("link", { name: "Docs", exact: true })).toHaveAttribute("href", "/docs");
  const pages = [
    "/dashboard",
    "/dashboard/orders",
    `/dashboard/orders/${state.orderId}`,
    "/dashboard/links",
    "/dashboard/transactions",
    `/dashboard/transactions/${state.txHash}`,
    "/dashboard/wallets",
    "/dashboard/api-keys",
    "/dashboard/webhooks",
    `/dashboard/webhooks/${state.endpointId}`,
    "/dashboard/sandbox",
    "/dashboard/settings",
  ];
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const path of pages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectNoHorizontalOverflow(page, `${path} at ${width} px`);
      const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `axe on ${path} at ${width} px`,
      ).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("create order in the dashboard: starts on the chain with a wallet, ends with the payment page link; the webhook test shows its result", async ({
  page,
}) => {
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/dashboard/orders");
  await page.getByRole("button", { name: "Create a test order" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an order (sandbox)" });
  await expect(dialog).toBeVisible();
  const create = dialog.getByRole("form", { name: "Create an order" });
  await expect(create.getByLabel("Blockchain")).toHaveValue("base");
  await create.getByLabel("Price", { exact: true }).fill("3.25");
  await create.getByRole("button", { name: "Create order" }).click();
  const created = create.getByTestId("created-order");
  await expect(created).toContainText("3.25 USDC");
  await expect(created.getByRole("link", { name: "Open its payment page" })).toHaveAttribute("href", /\/pay\/ORD-/);
  await expect(created.getByRole("button", { name: "Copy link" })).toBeVisible();
  await expect(created.getByRole("img", { name: /^QR code of .*\/pay\/ORD-/ })).toBeVisible();
  const newOrderId = (await created.locator(".mono").first().textContent())!;
  // The list behind the dialog has the new order, highlighted.
  await expect(page).toHaveURL(new RegExp(`created=${newOrderId}`));
  await expect(page.locator(`tr[data-order-id="${newOrderId}"]`)).toHaveAttribute("data-highlight", "true");
  await checkPage(page, "orders-create-dialog");
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `orders page with the dialog at ${size.width} px`).toBeLessThanOrEqual(size.width);
  }

  await create.getByLabel("Blockchain").selectOption("ethereum");
  await create.getByRole("button", { name: "Create order" }).click();
  const refused = create.getByRole("alert");
  await expect(refused).toContainText("no active wallet");
  await expect(refused).not.toContainText("/api/");
  await expect(refused.getByRole("link", { name: /^Add an? .* wallet$/ })).toHaveAttribute("href", "/dashboard/wallets");

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Create a payment link" }).click();
  const builder = page.getByRole("dialog", { name: "Create a payment link" }).getByRole("form", { name: "Create a payment link" });
  // Only the chain with a wallet is offered.
  await expect(builder.getByRole("checkbox")).toHaveCount(await builder.getByRole("checkbox", { name: /on Base/ }).count());
  await builder.getByLabel("Title").fill("Espresso beans");
  await builder.getByLabel("Price per item").fill("24");
  await builder.getByRole("button", { name: "Create link" }).click();
  const createdLink = builder.getByTestId("created-link");
  await expect(createdLink.getByRole("link", { name: "Open the link" })).toHaveAttribute("href", /\/link\/LNK-/);
  await expect(createdLink.getByRole("img", { name: /^QR code of / })).toBeVisible();
  await expect(page.locator('tr[data-highlight="true"]')).toContainText("Espresso beans");
  await checkPage(page, "links-create-dialog");

  await page.goto("/dashboard/webhooks");
  const endpoint = page.locator(`[data-endpoint-id="${state.endpointId}"]`);
  await endpoint.getByText("Send a test event").click();
  await endpoint.getByRole("button", { name: "Send test event" }).click();
  await expect(endpoint.getByTestId("webhook-test-result")).toContainText(/Delivered: your endpoint answered HTTP 2\d\d in \d+ ms/);
});

test("merchant A: transactions, overview, settings; revoke the key and the API refuses it; sign out", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(alice.username);
  await page.getByLabel("Password").fill(alice.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('li[data-done="true"]')).toHaveCount(4);
  await expect(page.getByRole("img", { name: /USDC on base/ })).toBeVisible();
  await checkPage(page, "overview");

  await page.goto("/dashboard/transactions");
  await expect(page.getByRole("link", { name: state.txHash })).toBeVisible();
  await checkPage(page, "transactions");
  // The accounting export from its form: the paid order's transfer, with its hash.
  const accounting = page.getByRole("form", { name: "Export every on-chain movement as CSV" });
  const [download] = await Promise.all([page.waitForEvent("download"), accounting.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^movements-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const { readFile } = await import("node:fs/promises");
  const movements = await readFile((await download.path())!, "utf8");
  expect(movements.split("\r\n")[0]).toMatch(/^occurred_at,type,direction,/);
  expect(movements).toContain(`,payment,in,`);
  expect(movements).toContain(state.txHash);
  expect(movements).toContain(state.orderId);
  expect((await request.get(`/dashboard/transactions/export?from=2000-01-01&to=2000-12-31`)).status()).toBe(401);
  await page.getByRole("link", { name: state.txHash }).click();
  await expect(page.getByRole("link", { name: state.orderId })).toBeVisible();
  await checkPage(page, "transaction-detail");

  await page.goto("/dashboard/settings");
  await expect(page.getByText("standard")).toBeVisible();
  await checkPage(page, "settings");

  const orders = await request.get(`/dashboard/orders/export?from=2000-01-01&to=2000-12-31`);
  expect(orders.status()).toBe(401); // the request fixture has no session cookie
  const csv = await page.request.get(`/dashboard/orders/export?from=${new Date().toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(state.orderId);

  await page.goto("/dashboard/api-keys");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator("tr", { hasText: "e2e backend" }).getByRole("button", { name: "Revoke" }).click();
  await expect(page.locator("tr", { hasText: "e2e backend" })).toContainText("revoked");
  const refused = await api(request, state.apiKey).get("/api/merchant-wallets/");
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("INVALID_TOKEN");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("merchant B sees none of merchant A's data", async ({ page }) => {
  await signUp(page, bob);
  await expect(page.locator('li[data-done="true"]')).toHaveCount(0);
  await page.goto("/dashboard/orders");
  await expect(page.getByText("0 orders")).toBeVisible();
  await page.goto(`/dashboard/orders?q=${state.orderId}`);
  await expect(page.locator(`tr[data-order-id]`)).toHaveCount(0);
  const orderPage = await page.goto(`/dashboard/orders/${state.orderId}`);
  expect(orderPage?.status()).toBe(404);
  const txPage = await page.goto(`/dashboard/transactions/${state.txHash}`);
  expect(txPage?.status()).toBe(404);
  const endpointPage = await page.goto(`/dashboard/webhooks/${state.endpointId}`);
  expect(endpointPage?.status()).toBe(404);
  await page.goto("/dashboard/transactions");
  await expect(page.getByText("0 transactions")).toBeVisible();
  await page.goto("/dashboard/webhooks");
  await expect(page.locator("[data-endpoint-id]")).toHaveCount(0);
  await expect(page.locator("[data-inbox-id]")).toHaveCount(0);
  await page.goto("/dashboard/api-keys");
  await expect(page.getByText("No keys yet.")).toBeVisible();
  await page.goto("/dashboard/wallets");
  await expect(page.getByText(walletAddress)).toHaveCount(0);
  const csv = await page.request.get(`/dashboard/orders/export?from=${new Date().toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`);
  expect(await csv.text()).not.toContain(state.orderId);
});

test("phone-sized screens: the dashboard still works", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(bob.username);
  await page.getByLabel("Password").fill(bob.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Below 768 px the links sit in a drawer behind "Menu": the top bar stays short.
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeHidden();
  expect((await nav.boundingBox())!.height).toBeLessThan(80);
  await nav.getByRole("button", { name: "Menu" }).click();
  await nav.getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
  await checkPage(page, "orders-phone");
});
