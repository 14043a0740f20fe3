/**
 * The WalletConnect option of the payment page (issue 27 item 4). WALLETCONNECT_PROJECT_ID is read
 * where the server runs, so this spec starts two servers of the same build (no devnet: the page
 * needs none to render): one with a project id, one without.
 *
 * - Without it: no WalletConnect option, and the page's CSP opens no WebSocket beyond loopback and
 *   frames nothing.
 * - With it: a "WalletConnect" button beside "Connect wallet" (German too), axe at 0 violations,
 *   the CSP allows the relay, Verify and the modal's fonts, and none of WalletConnect's code is in
 *   the page's first load. Clicking it loads that code and starts the pairing; with the relay
 *   unreachable (every WalletConnect and Reown host refused here, as on a machine without internet)
 *   the customer is told so plainly, the QR code and Copy stay usable, and the page throws nothing.
 *
 * The subscribe page (/subscribe/{SUB-id}) offers it the same way, on the same two servers.
 */
import { randomBytes } from "node:crypto";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { startAppServerOnTestDatabase, type AppServer } from "./app-server";
import { axeScan } from "./support";

const projectId = randomBytes(16).toString("hex");
let withWalletConnect: AppServer;
let without: AppServer;

// In order in one worker: one pair of servers for the file (the project runs tests fully parallel).
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const distDir = process.env.E2E_DIST_DIR || ".next-e2e";
  [withWalletConnect, without] = await Promise.all([
    startAppServerOnTestDatabase({ distDir, devnet: false, env: { WALLETCONNECT_PROJECT_ID: projectId } }),
    startAppServerOnTestDatabase({ distDir, devnet: false }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([withWalletConnect?.stop(), without?.stop()]);
});

async function post(server: AppServer, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { access?: string; data?: { order_id: string; receiving_address: string; id: string } };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A merchant with a base wallet, and a 12.5 USDC order on base: its payment page's URL and deposit address. */
async function payPage(server: AppServer): Promise<{ url: string; address: string }> {
  const username = `e2e_wc_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  await post(server, "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Harbour Prints" });
  const { access } = await post(server, "/api/auth/login/", { username, password });
  await post(server, "/api/merchant-wallets/", { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}` }, access);
  const { data } = await post(server, "/api/payment-orders/", { amount: "12.5", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 }, access);
  return { url: `${server.baseUrl}/pay/${data!.order_id}`, address: data!.receiving_address };
}

/** A merchant with a base wallet, a USDC plan and a customer's subscription to it: its subscribe page's URL. */
async function subscribePage(server: AppServer): Promise<string> {
  const username = `e2e_wcs_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  await post(server, "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Harbour Prints" });
  const { access } = await post(server, "/api/auth/login/", { username, password });
  await post(server, "/api/merchant-wallets/", { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}` }, access);
  const plan = await post(
    server,
    "/api/subscription-plans/",
    { name: "Print of the month", blockchain: "base", currency: "USDC", amount: "15", interval_days: 30 },
    access,
  );
  const sub = await post(server, "/api/subscriptions/", { plan: plan.data!.id, customer_address: `0x${randomBytes(20).toString("hex")}` }, access);
  return `${server.baseUrl}/subscribe/${sub.data!.id}`;
}

/** Uncaught exceptions and unhandled rejections of the page. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}

/** The JavaScript the page receives while `during` runs: each script's URL and text. */
async function scriptsDuring(page: Page, during: () => Promise<void>): Promise<Array<{ url: string; text: string }>> {
  const seen: Array<Promise<{ url: string; text: string }>> = [];
  const onResponse = (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() === "script")
      seen.push(
        response.text().then(
          (text) => ({ url: response.url(), text }),
          () => ({ url: response.url(), text: "" }),
        ),
      );
  };
  page.on("response", onResponse);
  await during();
  page.off("response", onResponse);
  return Promise.all(seen);
}

/** Every WalletConnect and Reown host refused: the relay's WebSocket closes at once, https requests fail. */
async function relayUnreachable(context: BrowserContext) {
  const hosts = /^(wss|https):\/\/([a-z0-9-]+\.)*(walletconnect\.(com|org|network)|reown\.com|web3modal\.(org|com))(\/|$)/;
  await context.routeWebSocket(hosts, (ws) => ws.close({ code: 1006, reason: "unreachable" }));
  await context.route(hosts, (route) => route.abort("internetdisconnected"));
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("without WALLETCONNECT_PROJECT_ID the page offers no WalletConnect, and its CSP allows no relay", async ({ page }) => {
  const { url } = await payPage(without);
  const response = await page.goto(url);
  await expect(page.getByRole("button", { name: "Connect wallet" })).toBeVisible();
  await expect(page.getByText("MetaMask, Rabby, Coinbase Wallet or any other browser wallet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "WalletConnect" })).toHaveCount(0);
  const csp = response!.headers()["content-security-policy"]!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("frame-src 'none'");
  expect(csp).not.toMatch(/walletconnect|reown|wss:/);
});

test("with it: a WalletConnect option beside Connect wallet, not in the first load, axe 0, CSP for the relay", async ({ page }) => {
  const { url } = await payPage(withWalletConnect);
  const errors = pageErrors(page);
  let csp = "";
  const firstLoad = await scriptsDuring(page, async () => {
    const response = await page.goto(url, { waitUntil: "networkidle" });
    csp = response!.headers()["content-security-policy"]!;
  });
  const wallet = page.getByRole("region", { name: "Pay with a wallet" });
  await expect(wallet.getByRole("button", { name: "Connect wallet" })).toBeVisible();
  await expect(wallet.getByRole("button", { name: "WalletConnect" })).toBeVisible();
  await expect(wallet).toContainText("or a phone wallet through WalletConnect");
  expect(firstLoad.length).toBeGreaterThan(0);
  expect(firstLoad.filter((s) => /relay\.walletconnect|@reown\/appkit|createAppKit/.test(s.text)).map((s) => s.url)).toEqual([]);

  expect(csp).toContain("wss://relay.walletconnect.com wss://relay.walletconnect.org");
  expect(csp).toContain("frame-src https://verify.walletconnect.com https://verify.walletconnect.org");
  expect(csp).toContain("https://fonts.reown.com");
  expect(csp).toContain("frame-ancestors 'none'");

  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test.describe("in German", () => {
  test.use({ locale: "de-DE" });

  test("the option and its hint in the customer's language, axe 0", async ({ page }) => {
    const { url } = await payPage(withWalletConnect);
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: "Wallet verbinden" })).toBeVisible();
    await expect(page.getByRole("button", { name: "WalletConnect" })).toBeVisible();
    await expect(page.getByText("oder eine Handy-Wallet über WalletConnect")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});

test("clicking WalletConnect with the relay unreachable says so; the QR code and Copy stay usable; nothing is thrown", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await relayUnreachable(context);
  const { url, address } = await payPage(withWalletConnect);
  const errors = pageErrors(page);
  await page.goto(url);
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");

  const loaded = await scriptsDuring(page, async () => {
    await page.getByRole("button", { name: "WalletConnect" }).click();
    // Told plainly, within the page's patience for the relay (15 s) or sooner when the attempt fails by itself.
    await expect(page.getByTestId("walletconnect-unreachable")).toBeVisible({ timeout: 40_000 });
  });
  // WalletConnect's code came only now, on the click.
  expect(loaded.some((s) => /relay\.walletconnect/.test(s.text))).toBe(true);
  await expect(page.getByTestId("walletconnect-unreachable")).toHaveText(
    "WalletConnect cannot be reached right now. Scan this page's QR code with your phone's wallet app, or copy the amount and the address into your wallet.",
  );

  // No dead end: the QR code is there and Copy works (nothing of the modal is left over the page).
  const qr = page.getByRole("img", { name: /QR code to pay 12\.5 USDC/ });
  await expect(qr).toBeVisible();
  const copy = page.getByRole("button", { name: "Copy the deposit address" });
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  // And WalletConnect can be tried again from the panel.
  await expect(page.getByRole("button", { name: "WalletConnect" })).toBeEnabled();

  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test.describe("the subscribe page", () => {
  test("without WALLETCONNECT_PROJECT_ID: no WalletConnect, and its CSP allows no relay", async ({ page }) => {
    const response = await page.goto(await subscribePage(without));
    await expect(page.getByRole("button", { name: "Connect wallet" })).toBeVisible();
    await expect(page.getByText("MetaMask, Rabby, Coinbase Wallet or any other browser wallet.")).toBeVisible();
    await expect(page.getByRole("button", { name: "WalletConnect" })).toHaveCount(0);
    const csp = response!.headers()["content-security-policy"]!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/walletconnect|reown|wss:/);
  });

  test("with it: WalletConnect beside Connect wallet, not in the first load, axe 0, CSP for the relay; German too", async ({ page }) => {
    const url = await subscribePage(withWalletConnect);
    const errors = pageErrors(page);
    let csp = "";
    const firstLoad = await scriptsDuring(page, async () => {
      const response = await page.goto(url, { waitUntil: "networkidle" });
      csp = response!.headers()["content-security-policy"]!;
    });
    const wallet = page.getByRole("region", { name: "Subscribe with your wallet" });
    await expect(wallet.getByRole("button", { name: "Connect wallet" })).toBeVisible();
    await expect(wallet.getByRole("button", { name: "WalletConnect" })).toBeVisible();
    await expect(wallet).toContainText("or a phone wallet through WalletConnect");
    expect(firstLoad.length).toBeGreaterThan(0);
    expect(firstLoad.filter((s) => /relay\.walletconnect|@reown\/appkit|createAppKit/.test(s.text)).map((s) => s.url)).toEqual([]);
    expect(csp).toContain("wss://relay.walletconnect.com wss://relay.walletconnect.org");
    expect(csp).toContain("frame-src https://verify.walletconnect.com https://verify.walletconnect.org");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    await page.context().addCookies([{ name: "NEXT_LOCALE", value: "de", url: withWalletConnect.baseUrl }]);
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: "WalletConnect" })).toBeVisible();
    await expect(page.getByText("oder eine Handy-Wallet über WalletConnect")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("clicking WalletConnect with the relay unreachable says so, and it can be tried again; nothing is thrown", async ({ page, context }) => {
    await relayUnreachable(context);
    const url = await subscribePage(withWalletConnect);
    const errors = pageErrors(page);
    await page.goto(url);
    await expect(page.getByRole("button", { name: "WalletConnect" })).toBeVisible();
    const loaded = await scriptsDuring(page, async () => {
      await page.getByRole("button", { name: "WalletConnect" }).click();
      await expect(page.getByTestId("subscribe-notice")).toBeVisible({ timeout: 40_000 });
    });
    expect(loaded.some((s) => /relay\.walletconnect/.test(s.text))).toBe(true);
    await expect(page.getByTestId("subscribe-notice")).toHaveText(
      "WalletConnect cannot be reached right now. Open this page in your wallet app's browser, or try again later.",
    );
    await expect(page.getByRole("button", { name: "WalletConnect" })).toBeEnabled();
    await expect(page.getByRole("button", { name: "Connect wallet" })).toBeEnabled();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
