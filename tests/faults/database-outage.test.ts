import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPublicClient, createTestClient, createWalletClient, http as viemHttp, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetAccounts, devnetChain, startDevnet, type Devnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { backend } from "../helpers/db";
import { randomAddress } from "../helpers/factories";
import { buildTimeoutMs, ensureBuilt, startServer, type ServerProcess } from "../helpers/server";
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import { FlakyReceiver, http, listAll, printSummary, signUp, sleep, waitFor, type Account } from "./support";

// Issue #23: PostgreSQL stops for 20 s, then (same server, no restart) for 60 s, under `next start`
// with the local job driver and traffic from a few clients. During each outage every request is
// answered within a few seconds with 503 SERVICE_UNAVAILABLE and Retry-After (never a 500, never a
// hang), readiness is 503 and liveness 200. After PostgreSQL is back, without touching the app, an
// order paid on the devnet confirms and its payment.confirmed webhook arrives. The cluster is the
// test's own (tests/faults/private-postgres.ts), so stopping it disturbs no one.
// PostgreSQL only: PGlite is embedded in the process and has no outage to survive.

/** A request answered later than this during an outage counts as a hang. */
const hangMs = 6_000;
const metricsToken = randomBytes(24).toString("hex");
/** After the API answers again, readiness passes within this (issue 50: it waited out a 30 s task backoff, 17.7 s). */
const readyAfterApiMs = 5_000;

let cluster: PrivatePostgres;
let devnet: Devnet;
let receiver: FlakyReceiver;
let server: ServerProcess;
let merchant: Account;
let nonce = 0;
/** Every order paid so far (across both scenarios): only these may be confirmed. */
const paidOrderIds = new Set<string>();

interface Answer {
  at: number;
  ms: number;
  method: string;
  status: number;
  code?: string;
  retryAfter: string | null;
  orderId?: string;
}

const skipReason =
  backend !== "postgres" ? "PostgreSQL only: PGlite is embedded and cannot go away on its own" : "no PostgreSQL 15 binaries for a private cluster";
const scenarios = describe.skipIf(backend !== "postgres" || !privatePostgresAvailable);

beforeAll(async () => {
  if (backend !== "postgres" || !privatePostgresAvailable) {
    console.log(`[faults] database outage: skipped (${skipReason})`);
    return;
  }
  await ensureBuilt();
  [cluster, devnet, receiver] = await Promise.all([startPrivatePostgres(), startDevnet(), FlakyReceiver.start()]);
  await ensureGatewayContracts(devnet.rpcUrl);
  server = await startServer({
    // The devnet is this file's own (DEVNET_RPC_URL), so the state file only has to be a path of its own.
    database: {
      env: { DATABASE_URL: cluster.url },
      devnetStateFile: path.join(tmpdir(), `gw-outage-devnet-${randomBytes(4).toString("hex")}.json`),
      drop: async () => {},
    },
    env: {
      DEVNET: "start",
      DEVNET_RPC_URL: devnet.rpcUrl,
      JOBS_DRIVER: "local",
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,1,2,2,2,2",
      // The tasks' backoff doubles to its default cap (30 s) within each outage; the driver wakes
      // them when the database answers again, so readiness does not wait out the rest of it.
      RATE_LIMIT_STANDARD_PER_HOUR: "1000000",
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: "info",
    },
  });
  merchant = await signUp(server);
  expect(
    (
      await http(server, "POST", "/api/merchant-wallets/", {
        token: merchant.access,
        json: { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 2 },
      })
    ).status,
  ).toBe(201);
  expect(
    (await http(server, "POST", "/api/webhook-endpoints/", { token: merchant.access, json: { url: receiver.url("/outage"), events: ["payment.confirmed"] } }))
      .status,
  ).toBe(201);
}, buildTimeoutMs);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await devnet?.stop();
  await cluster?.destroy();
});

async function timedRequest(method: string, path: string, json?: unknown): Promise<Answer & { body: any }> {
  const started = Date.now();
  try {
    const res = await http(server, method, path, { token: merchant.access, json, timeoutMs: 30_000 });
    return {
      at: started,
      ms: Date.now() - started,
      method,
      status: res.status,
      code: res.body?.error?.code,
      retryAfter: res.headers.get("retry-after"),
      body: res.body,
    };
  } catch {
    return { at: started, ms: Date.now() - started, method, status: 0, retryAfter: null, body: null };
  }
}

/** A customer-facing client: creates an order and reads it back, over and over, until stopped. */
async function client(answers: Answer[], running: () => boolean): Promise<void> {
  while (running()) {
    const created = await timedRequest("POST", "/api/payment-orders/", {
      amount: "1.5",
      currency: "USDC",
      blockchain: "base",
      order_info: "{}",
      nonce: ++nonce,
    });
    const orderId = created.status === 201 ? (created.body.data.order_id as string) : undefined;
    answers.push({ ...created, orderId, body: undefined } as Answer);
    if (orderId) {
      const read = await timedRequest("GET", `/api/payment-orders/${orderId}/`);
      answers.push({ ...read, body: undefined } as Answer);
    } else {
      const list = await timedRequest("GET", "/api/payment-orders/?page_size=5");
      answers.push({ ...list, body: undefined } as Answer);
    }
    await sleep(100);
  }
}

const probeStatus = async (path: string) => {
  const started = Date.now();
  try {
    const res = await http(server, "GET", path, { timeoutMs: 30_000 });
    return { at: started, ms: Date.now() - started, status: res.status, body: res.body };
  } catch {
    return { at: started, ms: Date.now() - started, status: 0, body: null };
  }
};

/**
 * `error` with the server's last warnings since `logStart` in its message: the failure summary at the
 * end of a long CI log then says what the server saw (a line printed beside it may be cut off).
 */
function withServerWarnings(error: unknown, what: string, logStart: number): Error {
  const warnings = serverLines(logStart, /"level":"(warn|error)"/);
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${message}\n[faults] ${what}; the server's last warnings:\n${warnings.slice(-12).join("\n")}`, { cause: error });
}

/** The server's log lines since `logStart` that match `pattern`. */
function serverLines(logStart: number, pattern: RegExp): string[] {
  return server
    .output()
    .slice(logStart)
    .split("\n")
    .filter((line) => pattern.test(line));
}

function countLines(output: string, pattern: RegExp): number {
  return output.split("\n").filter((line) => pattern.test(line)).length;
}

async function outage(seconds: number) {
  const logStart = server.output().length;
  const answers: Answer[] = [];
  const probes: Array<{ path: string; at: number; ms: number; status: number; body: any }> = [];
  let traffic = true;
  const clients = Array.from({ length: 4 }, () => client(answers, () => traffic));
  await waitFor("traffic to flow", async () => answers.filter((a) => a.status === 201).length >= 8, 30_000, 100);

  // An order a customer pays on the chain while the database is down (the chain does not wait).
  const paidDuringOutage = (
    await timedRequest("POST", "/api/payment-orders/", { amount: "0.01", currency: "ETH", blockchain: "base", order_info: "{}", nonce: ++nonce })
  ).body.data;
  expect(paidDuringOutage?.order_id).toBeDefined();

  await cluster.stop();
  const stoppedAt = Date.now();
  // New blocks wake the chain watchers (newHeads), whose ticks now meet the outage.
  const payer = createWalletClient({
    account: privateKeyToAccount(devnetAccounts[7].privateKey as Hex),
    chain: devnetChain,
    transport: viemHttp(devnet.rpcUrl),
  });
  const chain = createPublicClient({ chain: devnetChain, transport: viemHttp(devnet.rpcUrl) });
  const paymentHash = await payer.sendTransaction({ to: paidDuringOutage.receiving_address as Address, value: parseEther(paidDuringOutage.amount) });
  await chain.waitForTransactionReceipt({ hash: paymentHash });
  await createTestClient({ mode: "hardhat", chain: devnetChain, transport: viemHttp(devnet.rpcUrl) }).mine({ blocks: 2 });
  let probing = true;
  const prober = (async () => {
    while (probing) {
      for (const path of ["/api/health/ready", "/api/health/live"]) probes.push({ path, ...(await probeStatus(path)) });
      await sleep(1_000);
    }
  })();
  // The outage length is the scenario: the one deliberate wait.
  await sleep(seconds * 1000);
  probing = false;
  await prober;
  await cluster.start();
  const restartedAt = Date.now();

  let lastAnswer: unknown;
  const apiBack = await waitFor(
    "an order to be created again",
    async () => {
      const res = await timedRequest("POST", "/api/payment-orders/", { amount: "2", currency: "USDC", blockchain: "base", order_info: "{}", nonce: ++nonce });
      lastAnswer = res.body;
      return res.status === 201 && res.body.data;
    },
    60_000,
    200,
  ).catch((error) => {
    throw withServerWarnings(error, `no recovery; last answer ${JSON.stringify(lastAnswer)}`, logStart);
  });
  const apiRecoveredAt = Date.now();
  traffic = false;
  await Promise.all(clients);
  let lastReadiness: unknown;
  await waitFor(
    "readiness to pass again",
    async () => {
      const ready = await probeStatus("/api/health/ready");
      lastReadiness = ready.body;
      return ready.status === 200;
    },
    90_000,
    250,
  ).catch((error) => {
    throw withServerWarnings(error, `readiness still failing; last answer ${JSON.stringify(lastReadiness)}`, logStart);
  });
  const readyAt = Date.now();

  // Paid after the restart, with nothing restarted on the app's side: it confirms and its webhook arrives.
  const paid = await timedRequest("POST", `/api/sandbox/payment-orders/${apiBack.order_id}/pay/`, {});
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  const mined = await timedRequest("POST", "/api/sandbox/mine/", { blocks: 2, blockchain: "base" });
  expect(mined.status, JSON.stringify(mined.body)).toBe(200);
  const paidIds = [apiBack.order_id as string, paidDuringOutage.order_id as string];
  for (const id of paidIds) paidOrderIds.add(id);
  await waitFor(
    "both paid orders to confirm",
    async () => {
      const statuses = await Promise.all(paidIds.map(async (id) => (await timedRequest("GET", `/api/payment-orders/${id}/`)).body?.data?.status));
      return statuses.every((status) => status === "confirmed");
    },
    90_000,
    250,
  );
  const confirmedAt = Date.now();
  const confirmedWebhooks = (id: string) =>
    receiver.requests.filter((r) => {
      const body = JSON.parse(r.body);
      return body.event === "payment.confirmed" && body.data.order_id === id;
    });
  await waitFor("their payment.confirmed webhooks", async () => paidIds.every((id) => confirmedWebhooks(id).length > 0), 90_000, 250);
  const webhookAt = Date.now();

  // What happened to everything acknowledged: every 201 order exists; none but the paid one is confirmed.
  // Seen once in CI, under load: one 503 on this list after all of the above had worked. A client is
  // told to retry a 503 (Retry-After), so the list is retried, for 20 s at most; how often it was
  // answered 503, and the server's reason, go in the summary and the output.
  const listStarted = server.output().length;
  let list503s = 0;
  let all: any[] | undefined;
  for (const deadline = Date.now() + 20_000; !all;) {
    try {
      all = await listAll(server, "/api/payment-orders/", merchant.access);
    } catch (error) {
      if (!/: 503 /.test(String(error)) || Date.now() > deadline) throw withServerWarnings(error, "the list failed after recovery", logStart);
      list503s += 1;
      await sleep(500);
    }
  }
  if (list503s > 0) {
    const reasons = serverLines(listStarted, /database unavailable; answered 503/);
    console.log(`[faults] the list after recovery was answered 503 ${list503s} time(s) before it succeeded; the server's reasons:\n${reasons.join("\n")}`);
  }
  const byId = new Map(all.map((o) => [o.order_id as string, o]));
  const acknowledged = answers.filter((a) => a.orderId).map((a) => a.orderId!);
  const lost = acknowledged.filter((id) => !byId.has(id));
  const falseConfirmed = all.filter((o) => o.status === "confirmed" && !paidOrderIds.has(o.order_id));

  const linesOf = (msg: string) =>
    server
      .output()
      .slice(logStart)
      .split("\n")
      .filter((line) => line.includes(`"msg":"${msg}"`))
      .map((line) => JSON.parse(line).task as string);
  // A task backing off (at most TASK_RETRY_MAX_SECONDS) takes its next run, and says it recovered, when its backoff ends.
  // Seen once in CI, under load: watch-chain-ethereum's failing streak began with another error than the database's
  // (an RPC call timing out, say: "task failing; retrying with backoff"), and it said it recovered like the others.
  const failedTasks = () => [...linesOf("task failing: database unavailable; retrying with backoff"), ...linesOf("task failing; retrying with backoff")];
  await waitFor(
    "every task that failed to recover",
    async () => {
      const recovered = new Set(linesOf("task recovered"));
      return failedTasks().every((task) => recovered.has(task));
    },
    60_000,
    250,
  );
  const log = server.output().slice(logStart);
  const during = answers.filter((a) => a.at >= stoppedAt && a.at < restartedAt);
  const failures = during.filter((a) => a.status !== 201 && a.status !== 200);
  const other5xx = answers.filter((a) => a.status >= 500 && a.status !== 503);
  const hung = during.filter((a) => a.ms > hangMs || a.status === 0);
  const readyDuring = probes.filter((p) => p.path === "/api/health/ready" && p.at >= stoppedAt + 3_000);
  const liveDuring = probes.filter((p) => p.path === "/api/health/live");
  const taskWarnings = linesOf("task failing: database unavailable; retrying with backoff");
  const recovered = linesOf("task recovered");
  const otherFailures = serverLines(logStart, /"msg":"task failing; retrying with backoff"/);
  if (otherFailures.length > 0)
    console.log(`[faults] tasks that failed for another reason than the database during the ${seconds} s outage:\n${otherFailures.join("\n")}`);

  printSummary(`database outage ${seconds} s`, {
    acknowledged: acknowledged.length,
    found: acknowledged.length - lost.length,
    lost: lost.length,
    duplicated: paidIds.filter((id) => new Set(confirmedWebhooks(id).map((w) => w.headers["webhook-id"])).size > 1).length,
    "false-confirmed": falseConfirmed.length,
    "5xx": other5xx.length,
    answered_503: failures.filter((a) => a.status === 503).length,
    slowest_outage_answer_ms: Math.max(0, ...during.map((a) => a.ms)),
    hung: hung.length,
    api_recovery_s: Math.round((apiRecoveredAt - restartedAt) / 100) / 10,
    ready_recovery_s: Math.round((readyAt - restartedAt) / 100) / 10,
    ready_after_api_s: Math.round((readyAt - apiRecoveredAt) / 100) / 10,
    confirm_after_restart_s: Math.round((confirmedAt - restartedAt) / 100) / 10,
    webhook_after_restart_s: Math.round((webhookAt - restartedAt) / 100) / 10,
    task_warnings: taskWarnings.length,
    other_task_failures: otherFailures.length,
    tasks_recovered: recovered.length,
    list_503_after_recovery: list503s,
  });

  expect(during.length).toBeGreaterThan(10);
  expect(failures.length).toBeGreaterThan(0);
  expect(failures.filter((a) => a.status !== 503 || a.code !== "SERVICE_UNAVAILABLE" || a.retryAfter !== "5")).toEqual([]);
  expect(other5xx).toEqual([]);
  expect(hung).toEqual([]);
  expect(readyDuring.length).toBeGreaterThan(0);
  expect(readyDuring.filter((p) => p.status !== 503 || !p.body?.failed?.includes("database"))).toEqual([]);
  expect(readyDuring.every((p) => p.ms < hangMs)).toBe(true);
  expect(liveDuring.filter((p) => p.status !== 200)).toEqual([]);
  expect(readyAt - apiRecoveredAt).toBeLessThan(readyAfterApiMs);
  expect(lost).toEqual([]);
  expect(falseConfirmed).toEqual([]);
  // A warning per task for the outage, not one per retry: at most one more as PostgreSQL comes back
  // (a pooled connection that died with the old server fails once more), and each task says it recovered.
  const warningsPerTask = [...new Set(taskWarnings)].map((task) => [task, taskWarnings.filter((t) => t === task).length] as const);
  expect(warningsPerTask.filter(([, n]) => n > 2)).toEqual([]);
  expect(taskWarnings).toContain("watch-chain-base");
  expect(new Set(recovered)).toEqual(new Set(failedTasks()));
  // Another reason, but never the database's own errors unrecognised: those must say "database unavailable".
  // (Not any ECONNRESET: the devnet's RPC can reset a connection too; PostgreSQL's are the ones to its port.)
  const databasePort = new URL(cluster.url).port;
  const databaseError = new RegExp(
    `(127\\.0\\.0\\.1|localhost):${databasePort}\\b|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|57P0|terminating connection|the database system`,
    "i",
  );
  expect(otherFailures.filter((line) => databaseError.test(line))).toEqual([]);
  // The lines themselves with the two before (the log line of what was going on) and the six after (its stack), so a failure says what went unhandled.
  const lines = log.split("\n");
  const unhandled = lines.flatMap((line, at) =>
    /uncaughtException|unhandledRejection|Cannot read properties of null/.test(line) ? [lines.slice(Math.max(0, at - 2), at + 7).join("\n")] : [],
  );
  expect(unhandled).toEqual([]);
  expect(countLines(log, /"msg":"unhandled error"/)).toBe(0);
  expect(server.child.exitCode).toBeNull();
}

scenarios("PostgreSQL outage under a running server", () => {
  test("20 s outage: fast 503s, readiness 503, liveness 200; afterwards a paid order confirms and its webhook arrives", { timeout: 300_000 }, async () => {
    await outage(20);
  });

  test("60 s outage on the same server (no restart in between): the same", { timeout: 400_000 }, async () => {
    await outage(60);
  });

  test("metrics need the token, and show the chain, the tasks and the requests after the outages", async () => {
    expect((await http(server, "GET", "/api/metrics")).status).toBe(401);
    let reportedWatcherErrors = false;
    // The database gauges are read at each scrape: the first after the outages may still meet a connection PostgreSQL's restart closed.
    const text = await waitFor(
      "a scrape with the database gauges",
      async () => {
        const res = await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
        expect(res.status).toBe(200);
        const body = await res.text();
        // A watcher tick may fail after the outages on a loaded machine (an RPC call timing out, say): what counts is
        // that its runs succeed again, so wait for a scrape after a good run, and say what failed meanwhile.
        const watcherErrors = Number(/^gateway_task_consecutive_errors\{task="watch-chain-base"\} (\d+)$/m.exec(body)?.[1] ?? NaN);
        if (watcherErrors > 0 && !reportedWatcherErrors) {
          reportedWatcherErrors = true;
          const warnings = server
            .output()
            .split("\n")
            .filter((line) => /"level":"(warn|error)"/.test(line) && line.includes("watch-chain-base"));
          console.log(
            `[faults] watch-chain-base failed ${watcherErrors} runs in a row after the outages; its last warnings:\n${warnings.slice(-6).join("\n")}`,
          );
        }
        return /^gateway_database_up 1$/m.test(body) && /^gateway_chain_lag_blocks\{chain="base"\} \d+$/m.test(body) && watcherErrors === 0 && body;
      },
      30_000,
      500,
    );
    expect(text).toMatch(/^gateway_chain_head_block\{chain="base"\} \d+$/m);
    expect(text).toMatch(/^gateway_chain_lag_blocks\{chain="base"\} \d+$/m);
    expect(text).toMatch(/^gateway_database_up 1$/m);
    expect(text).toMatch(/^gateway_task_consecutive_errors\{task="watch-chain-base"\} 0$/m);
    expect(text).toMatch(/^gateway_http_requests_total\{method="POST",route="\/api\/payment-orders",status="503"\} [1-9]\d*$/m);
    expect(text).toMatch(/^gateway_webhook_attempts_total\{outcome="2xx"\} [1-9]\d*$/m);
  });
});
