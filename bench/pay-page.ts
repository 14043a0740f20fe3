/**
 * Payment page benchmark: first-load JavaScript of /pay/[orderId] from the production build
 * (target < 150 kB gzipped before the wallet is connected) and its load time in chromium.
 *
 * Builds into .next-e2e unless a build is there (PAY_BENCH_REBUILD=1 forces one), starts
 * `next start` in sandbox mode without a devnet (the page needs none to render), creates an order
 * over the HTTP API, then loads the page in Debian's chromium: the gzipped size of every JS
 * response before any interaction, the wallet chunk loaded by "Connect wallet", and the median
 * of 10 cold loads to the load event and to the live status (`pay:status-live` mark: hydrated
 * and polling).
 */
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { buildApp, startAppServer } from "../tests/e2e/app-server";

const distDir = ".next-e2e";
const loads = 10;
const targetKb = 150;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

interface ApiJson {
  access?: string;
  data?: { order_id?: string };
}

async function post(baseUrl: string, path: string, body: unknown, token?: string): Promise<ApiJson> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as ApiJson;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function createOrder(baseUrl: string): Promise<string> {
  const username = `bench_${Date.now()}`;
  const password = "bench password 123";
  await post(baseUrl, "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Bench Shop" });
  const { access } = await post(baseUrl, "/api/auth/login/", { username, password });
  await post(baseUrl, "/api/merchant-wallets/", { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF" }, access);
  const order = await post(baseUrl, "/api/payment-orders/", { amount: "10", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 }, access);
  return order.data!.order_id!;
}

/** Sums the gzipped size of each JS response the page receives while `during` runs. */
async function jsDuring(page: Page, during: () => Promise<void>): Promise<{ files: number; raw: number; gzip: number; each: Array<[string, number]> }> {
  const seen = new Map<string, Promise<Buffer | null>>();
  const onResponse = (response: import("@playwright/test").Response) => {
    const type = response.headers()["content-type"] ?? "";
    if (response.request().resourceType() === "script" || type.includes("javascript")) {
      seen.set(
        response.url(),
        response.body().catch(() => null),
      );
    }
  };
  page.on("response", onResponse);
  await during();
  page.off("response", onResponse);
  let raw = 0;
  let gzip = 0;
  const each: Array<[string, number]> = [];
  const urls = [...seen.keys()];
  const bodies = await Promise.all(seen.values());
  bodies.forEach((body, i) => {
    if (!body) return;
    const zipped = gzipSync(body).length;
    raw += body.length;
    gzip += zipped;
    each.push([new URL(urls[i]!).pathname.split("/").pop()!, zipped]);
  });
  each.sort((a, b) => b[1] - a[1]);
  return { files: seen.size, raw, gzip, each };
}

export async function runPayPageBench(): Promise<void> {
  buildApp(distDir, { reuse: process.env.PAY_BENCH_REBUILD !== "1", quiet: true });
  const server = await startAppServer({ distDir, devnet: false });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  try {
    const orderId = await createOrder(server.baseUrl);
    const url = `${server.baseUrl}/pay/${orderId}`;

    // First-load JS and the wallet chunk, in a fresh context (empty cache).
    const context = await browser.newContext();
    // A stand-in window.ethereum: without any browser wallet "Connect wallet" only says so and loads nothing.
    // (Script text, not a function: tsx's transform would leave its __name helper in the function's source.)
    await context.addInitScript({ content: 'window.ethereum = { request: () => Promise.reject(new Error("bench stand-in")), on() {}, removeListener() {} };' });
    const page = await context.newPage();
    const firstLoad = await jsDuring(page, async () => {
      await page.goto(url, { waitUntil: "networkidle" });
    });
    const wallet = await jsDuring(page, async () => {
      await page.getByRole("button", { name: "Connect wallet" }).click();
      // Only the stand-in window.ethereum: the panel offers the generic injected connector once wagmi has loaded.
      await page.getByRole("button", { name: "Browser wallet" }).waitFor({ timeout: 15_000 });
      await page.waitForLoadState("networkidle");
    });
    await context.close();

    // Load times: a fresh context per load (cold cache, as a customer opening the link).
    const toLoad: number[] = [];
    const toLive: number[] = [];
    await (async () => {
      const warm = await browser.newContext();
      await (await warm.newPage()).goto(url); // the server's first render of the route compiles nothing, but warms its caches
      await warm.close();
    })();
    for (let i = 0; i < loads; i++) {
      const ctx = await browser.newContext();
      const p = await ctx.newPage();
      await p.goto(url, { waitUntil: "load" });
      await p.waitForFunction(() => performance.getEntriesByName("pay:status-live").length > 0, undefined, { timeout: 15_000 });
      const timing = await p.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return { load: nav.loadEventEnd, live: performance.getEntriesByName("pay:status-live")[0]!.startTime };
      });
      toLoad.push(timing.load);
      toLive.push(timing.live);
      await ctx.close();
    }

    const verdict = firstLoad.gzip / 1024 < targetKb ? "under" : "OVER";
    console.log("\n== pay page (/pay/[orderId], production build, chromium) ==");
    console.log(
      `first-load JS: ${kb(firstLoad.gzip)} kB gzipped (${kb(firstLoad.raw)} kB raw, ${firstLoad.files} files) — ${verdict} the ${targetKb} kB target`,
    );
    if (process.env.PAY_BENCH_VERBOSE === "1") for (const [name, size] of firstLoad.each) console.log(`  ${kb(size).padStart(6)} kB  ${name}`);
    console.log(`wallet code on "Connect wallet": +${kb(wallet.gzip)} kB gzipped (${wallet.files} files)`);
    console.log(
      `load event: median ${median(toLoad).toFixed(0)} ms over ${loads} cold loads (min ${Math.min(...toLoad).toFixed(0)}, max ${Math.max(...toLoad).toFixed(0)})`,
    );
    console.log(
      `live status (hydrated, polling): median ${median(toLive).toFixed(0)} ms (min ${Math.min(...toLive).toFixed(0)}, max ${Math.max(...toLive).toFixed(0)})`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}
