/**
 * Lighthouse on the customer pages (`npm run bench -- lighthouse`; not part of `npm test`): the
 * `lighthouse` package driving Debian's chromium (headless, --no-sandbox) with its default mobile
 * settings (a phone screen, simulated slow 4G and CPU), against the production build served by
 * `next start` in sandbox mode on its own devnet. Prints performance, accessibility and
 * best-practices (0–100; target >= 95) of the pay page (open order), the payment link page and the
 * receipt of an order paid on the devnet.
 *
 * Builds into .next-e2e unless a build is there (LIGHTHOUSE_REBUILD=1 forces one). LIGHTHOUSE_LOCALE
 * (default en) is sent as Accept-Language, so the pages are measured in that language. LIGHTHOUSE_SAVE=<dir>
 * writes each page's (median) report (JSON) there. Each page is loaded once to warm the server, then
 * measured LIGHTHOUSE_RUNS times (default 3): the median run by performance is the one reported.
 * Each run's score is printed with when the page really painted first and with Lighthouse's CPU
 * benchmark index of the moment: under 1000 Lighthouse itself warns that the machine is too slow for
 * its simulated phone, and the score drops (on this shared 2-core machine the index moved from ~900
 * under load to 1,200–2,200 when quiet).
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { buildApp, startAppServer } from "../tests/e2e/app-server";

const distDir = ".next-e2e";
const target = 95;
/** Lighthouse runs per page (LIGHTHOUSE_RUNS); the median by performance is reported. */
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const categories = ["performance", "accessibility", "best-practices"] as const;

interface LighthouseResult {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, { score: number | null; numericValue?: number; displayValue?: string; details?: { items?: Array<Record<string, number>> } }>;
  /** Lighthouse's measure of this machine's CPU at the time of the run; under 1000 it warns that the score suffers (its 4x slowdown assumes a faster desktop). */
  environment?: { benchmarkIndex?: number };
}

/** The metrics behind the performance score, as Lighthouse displays them. */
const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"] as const;

/**
 * When the unthrottled page really painted first (Lighthouse's observed, not simulated, FCP). Its
 * simulated LCP and speed index count everything that happened before it, so a run whose first
 * frame came late scores lower (see bench/HISTORY.md, "The pay page's late first frame").
 */
function observedFirstPaint(lhr: LighthouseResult): number | string {
  const observed = lhr.audits.metrics?.details?.items?.[0]?.observedFirstContentfulPaint;
  return observed === undefined ? "?" : Math.round(observed);
}

/**
 * Lighthouse's own CLI under plain node: tsx (which runs the benches) would add its `__name`
 * helper to the functions Lighthouse evaluates in the page, where it does not exist.
 */
async function runLighthouse(url: string, locale: string): Promise<LighthouseResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "node_modules/lighthouse/cli/index.js",
      url,
      "--output=json",
      "--quiet",
      `--only-categories=${categories.join(",")}`,
      `--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --accept-lang=${locale}`,
      `--extra-headers=${JSON.stringify({ "Accept-Language": locale })}`,
    ],
    { env: { ...process.env, CHROME_PATH: "/usr/bin/chromium" }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
  );
  return JSON.parse(stdout) as LighthouseResult;
}

interface ApiJson {
  access?: string;
  data?: Record<string, unknown>;
}

async function api(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<ApiJson> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as ApiJson;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A merchant with a Base wallet (the sandbox signs it up one on the devnet), an open order, a link, and a confirmed order for its receipt. */
async function pages(baseUrl: string): Promise<Array<[string, string]>> {
  const username = `lighthouse_${Date.now()}`;
  const password = "lighthouse password 123";
  await api(baseUrl, "POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Lighthouse Books" });
  const { access } = await api(baseUrl, "POST", "/api/auth/login/", { username, password });
  const wallets = (await api(baseUrl, "GET", "/api/merchant-wallets/", undefined, access)) as unknown as { results: unknown[] };
  if (wallets.results.length === 0)
    await api(baseUrl, "POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF" }, access);
  const order = async () =>
    (await api(baseUrl, "POST", "/api/payment-orders/", { amount: "10", currency: "USDC", blockchain: "base", order_info: "{}", nonce: Date.now() }, access))
      .data as {
      order_id: string;
      amount: string;
    };
  const open = await order();
  const link = (
    await api(
      baseUrl,
      "POST",
      "/api/payment-links/",
      { title: "Espresso beans 1 kg", price_amount: "24.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }], max_quantity: 3 },
      access,
    )
  ).data as { id: string };
  const paid = await order();
  await api(baseUrl, "POST", `/api/sandbox/payment-orders/${paid.order_id}/pay/`, { amount: paid.amount }, access);
  const status = async () => (await api(baseUrl, "GET", `/api/pay/${paid.order_id}/`)).data as { status: string; amount_received: string };
  await waitFor("the sandbox payment", async () => ((await status()).amount_received === paid.amount ? true : null));
  await api(baseUrl, "POST", "/api/sandbox/mine/", { blocks: 3, blockchain: "base" }, access);
  await waitFor("the confirmation", async () => ((await status()).status === "confirmed" ? true : null));
  return [
    ["pay page (open order)", `${baseUrl}/pay/${open.order_id}`],
    ["payment link page", `${baseUrl}/link/${link.id}`],
    ["receipt", `${baseUrl}/pay/${paid.order_id}/receipt`],
  ];
}

export async function runLighthouseBench(): Promise<void> {
  buildApp(distDir, { reuse: process.env.LIGHTHOUSE_REBUILD !== "1", quiet: true });
  const server = await startAppServer({ distDir, devnet: true });
  const locale = process.env.LIGHTHOUSE_LOCALE ?? "en";
  try {
    const targets = await pages(server.baseUrl);
    console.log(`\n== Lighthouse (mobile, ${locale}; production build, chromium) ==`);
    let below = 0;
    for (const [name, url] of targets) {
      // A first request warms the server (a production server is warm); then `runs` Lighthouse runs,
      // and the median run by performance is reported, as Lighthouse's own docs advise for a noisy machine.
      await fetch(url);
      const reports: LighthouseResult[] = [];
      for (let i = 0; i < runs; i++) reports.push(await runLighthouse(url, locale));
      const performance = reports.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100));
      const lhr = reports.map((r, i) => ({ r, p: performance[i]! })).sort((a, b) => a.p - b.p)[Math.floor(runs / 2)]!.r;
      const scores = categories.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      below += scores.filter((s) => s < target).length;
      const runsText = reports
        .map((r, i) => `${performance[i]} (CPU index ${Math.round(r.environment?.benchmarkIndex ?? 0)}, first paint seen at ${observedFirstPaint(r)} ms)`)
        .join(", ");
      console.log(`${name.padEnd(24)} ${categories.map((c, i) => `${c} ${scores[i]}`).join("  ")}   (performance of each run: ${runsText})`);
      console.log(`${"".padEnd(24)} ${metrics.map((m) => `${m.replace(/-/g, " ")} ${lhr.audits[m]?.displayValue ?? "-"}`).join(", ")}`);
      if (process.env.LIGHTHOUSE_SAVE) {
        mkdirSync(process.env.LIGHTHOUSE_SAVE, { recursive: true });
        writeFileSync(path.join(process.env.LIGHTHOUSE_SAVE, `${name.replace(/\W+/g, "-")}.json`), JSON.stringify(lhr));
      }
      // What pulled a score under the target, by audit.
      for (const c of categories) {
        if ((lhr.categories[c]?.score ?? 0) * 100 >= target) continue;
        const failing = lhr.categories[c]!.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9).map((ref) => ref.id);
        console.log(`  ${c} below ${target}: ${failing.join(", ")}`);
      }
    }
    console.log(below === 0 ? `every score >= ${target}` : `${below} score(s) below ${target}`);
  } finally {
    await server.stop();
  }
}
