import { eq, inArray } from "drizzle-orm";
import { createTestClient, createWalletClient, custom, http, parseEther, type Address, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as createWallet } from "@/app/api/merchant-wallets/route";
import { POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { findBlockchainBySlug, setDevnetRpcUrl, type Blockchain } from "@/lib/chains/catalog";
import { createChainClient, viemChain } from "@/lib/chains/clients";
import { createProviderPool } from "@/lib/chains/provider-pool";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import { devnetAccounts, startDevnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { merchants, paymentOrders } from "@/lib/db/schema";
import { sendFromFaucet, mineBlocks } from "@/lib/sandbox/devnet-tools";
import { createBenchDatabase, fmt, noParams, percentile, request } from "./support";
import { startRpcProxy, type RpcProxy } from "../tests/helpers/rpc-proxy";

function countingClient(chain: Blockchain, rpcUrl: string) {
  const inner = http(rpcUrl)({ chain: undefined, retryCount: 0 });
  const counter = { requests: 0 };
  const client = createChainClient(
    chain,
    custom({
      async request(args) {
        counter.requests += 1;
        return inner.request(args);
      },
    }),
  );
  return { client, counter };
}

async function measureRpcPerBlock(
  db: Parameters<typeof watchChainTick>[0],
  chain: Blockchain,
  client: PublicClient,
  counter: { requests: number },
  blocks: number,
) {
  await mineBlocks(chain, blocks);
  counter.requests = 0;
  const started = performance.now();
  const result = await watchChainTick(db, chain, client, { checkInternalDeposits: false, maxBlocksPerTick: blocks });
  const elapsed = performance.now() - started;
  const scanned = Number(result.scan.toBlock! - result.scan.fromBlock! + 1n);
  return { perBlock: counter.requests / scanned, tickMs: elapsed, scanned };
}

type Db = Parameters<typeof watchChainTick>[0];

/** The faulty provider: 429 with Retry-After: 1 to 30 % of the HTTP requests, 10 % delayed by 1.5 s (a batch is one request). */
function misbehave(proxy: RpcProxy) {
  proxy.behave(
    () => {
      const draw = Math.random();
      return draw < 0.3 ? { httpStatus: 429, retryAfterSeconds: 1 } : draw < 0.4 ? { delayMs: 1500 } : "forward";
    },
    { perRequest: true },
  );
}

interface GapOutcome {
  confirmed: number;
  seconds: number;
  calls: number;
  httpRequests: number;
  limited: number;
  scannedBlocks: number;
  failedTicks: number;
}

/**
 * The measurement: the cursor 300 blocks behind the head with 5 USDC payments in the gap,
 * the watcher polling every 250 ms through `client`; how many payments are detected within the
 * bound, how long it took, and what the providers received meanwhile.
 */
async function measureGap(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  proxies: RpcProxy[],
  pay: () => Promise<string[]>,
  boundMs: number,
): Promise<GapOutcome> {
  const direct = createChainClient(chain, http(chain.rpcUrl!));
  await watchChainTick(db, chain, direct, { checkInternalDeposits: false }); // cursor at head
  const orderIds = await pay();
  await mineBlocks(chain, 300);
  for (const proxy of proxies) proxy.resetCounts();
  const started = performance.now();
  let polling = true;
  let scannedBlocks = 0;
  let failedTicks = 0;
  const loop = (async () => {
    while (polling) {
      const tick = await watchChainTick(db, chain, client, { checkInternalDeposits: false }).catch(() => {
        failedTicks += 1;
        return null;
      });
      if (tick?.scan.toBlock != null && tick.scan.fromBlock != null) scannedBlocks += Number(tick.scan.toBlock - tick.scan.fromBlock + 1n);
      await new Promise((r) => setTimeout(r, chain.pollIntervalMs));
    }
  })();
  let confirmed = 0;
  while (performance.now() - started < boundMs) {
    const rows = await db.select({ status: paymentOrders.status }).from(paymentOrders).where(inArray(paymentOrders.orderId, orderIds));
    confirmed = rows.filter((row) => row.status === "confirmed").length;
    if (confirmed === orderIds.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const counts = {
    calls: proxies.reduce((n, p) => n + p.calls.length, 0),
    httpRequests: proxies.reduce((n, p) => n + p.httpRequests, 0),
    limited: proxies.reduce((n, p) => n + p.refusedRequests, 0),
  };
  polling = false;
  await loop;
  return { confirmed, seconds, ...counts, scannedBlocks, failedTicks };
}

/** Before (one provider, viem http with two retries and a 15 s timeout, as the gateway had) and after (the provider pool), with and without the faulty proxy. */
async function runProviderScenarios(db: Db, chain: Blockchain, accessToken: string): Promise<void> {
  const usdc = chain.tokens.find((t) => t.symbol === "USDC")!;
  let nonce = 200_000;
  const pay = async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await createOrderRoute(
        request("POST", "/api/payment-orders/", {
          token: accessToken,
          body: { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: nonce++ },
        }),
        noParams,
      );
      const order = (await res.json()).data;
      await sendFromFaucet(chain, usdc, order.receiving_address, 1_000_000n);
      ids.push(order.order_id);
    }
    return ids;
  };
  const faulty = await startRpcProxy(chain.rpcUrl!);
  const clean = await startRpcProxy(chain.rpcUrl!);
  const budget = 25;
  const before = (url: string) => createChainClient(chain, http(url, { retryCount: 2, timeout: 15_000 }));
  const after = (urls: string[]) => createChainClient(chain, createProviderPool(urls, { requestsPerSecond: budget, batch: true }).transport);
  const scenarios: Array<[string, () => PublicClient, RpcProxy[], "clean" | "faulty" | "issue"]> = [
    ["before: one provider, clean", () => before(clean.url), [clean], "clean"],
    ["before: one provider, faulty", () => before(faulty.url), [faulty], "faulty"],
    ["after: one provider, clean", () => after([clean.url]), [clean], "clean"],
    ["after: one provider, faulty", () => after([faulty.url]), [faulty], "faulty"],
    ["after: one provider, faulty + 100 ms round trip + 100-block eth_getLogs limit (the issue's)", () => after([faulty.url]), [faulty], "issue"],
    ["after: faulty + clean providers", () => after([faulty.url, clean.url]), [faulty, clean], "faulty"],
  ];
  const boundMs = 120_000;
  console.log(
    `\n## Providers: 5 USDC payments after a 300-block gap (faulty: 429 + Retry-After: 1 to 30 % of HTTP requests, 10 % delayed 1.5 s; budget ${budget}/s per provider in "after")`,
  );
  console.log(
    "| scenario | confirmed within 120 s | seconds | JSON-RPC calls | HTTP requests | calls/s | HTTP requests answered 429 | calls per scanned block | failed ticks |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  try {
    for (const [label, makeClient, proxies, faults] of scenarios) {
      for (const proxy of [faulty, clean]) {
        proxy.behave(() => "forward");
        proxy.roundTrip(0);
        proxy.limitLogs(null);
      }
      if (faults !== "clean") misbehave(faulty);
      if (faults === "issue") {
        faulty.roundTrip(100);
        faulty.limitLogs({ maxBlocks: 100, wording: "alchemy" });
      }
      const outcome = await measureGap(db, chain, makeClient(), proxies, pay, boundMs);
      console.log(
        `| ${label} | ${outcome.confirmed} of 5 | ${fmt(outcome.seconds, 1)} | ${outcome.calls} | ${outcome.httpRequests} | ${fmt(outcome.calls / outcome.seconds, 0)} | ${outcome.limited} | ${outcome.scannedBlocks ? fmt(outcome.calls / outcome.scannedBlocks, 2) : "–"} | ${outcome.failedTicks} |`,
      );
    }
  } finally {
    faulty.behave(() => "forward");
    faulty.roundTrip(0);
    await faulty.close();
    await clean.close();
  }
}

/** Open orders on `chain` paid in its native coin, inserted directly (each with its own deposit address). */
async function insertNativeOrders(db: Db, chain: Blockchain, merchantId: number, walletAddress: Address, count: number, nonceFrom: number): Promise<Address[]> {
  const now = new Date();
  const addresses: Address[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => {
      const salt = newOrderSalt();
      const receivingAddress = computeDepositAddress({ factory: chain.factory!, implementation: chain.implementation!, destination: walletAddress, salt });
      addresses.push(receivingAddress as Address);
      return {
        orderId: `ORD-native${nonceFrom + start + i}`,
        merchantId,
        nonce: nonceFrom + start + i,
        blockchainId: chain.id,
        currency: chain.nativeCurrency.symbol,
        tokenAddress: null,
        decimals: 18,
        amount: parseEther("1").toString(),
        amountReceived: "0",
        status: "pending",
        receivingAddress,
        depositDestination: walletAddress,
        depositSalt: salt,
        depositFactory: chain.factory!,
        orderInfo: "{}",
        confirmationThreshold: 1,
        expiresAt: new Date(now.getTime() + 24 * 3600_000),
        createdAt: now,
        updatedAt: now,
      };
    });
    await db.insert(paymentOrders).values(rows);
  }
  return addresses;
}

/**
 * What the watcher reads per block, by how many native-coin orders are open on the chain: 50
 * blocks, each with `perBlock` unrelated transactions (a live block holds hundreds; these show how
 * the cost follows a block's size), and with open orders one native payment among them; ticks until
 * the scan is caught up, through a proxy that counts JSON-RPC calls and the bytes both ways (the
 * provider pool as the gateway runs it).
 */
async function measureCostByNativeOrders(db: Db, chain: Blockchain, merchantId: number, walletAddress: Address, perBlock = 10): Promise<void> {
  const proxy = await startRpcProxy(chain.rpcUrl!);
  const sender = createWalletClient({ account: privateKeyToAccount(devnetAccounts[6].privateKey), chain: viemChain(chain), transport: http(chain.rpcUrl!) });
  const direct = createChainClient(chain, http(chain.rpcUrl!));
  const blocks = 50;
  let nonce = 300_000;
  const testClient = createTestClient({ mode: "hardhat", chain: viemChain(chain), transport: http(chain.rpcUrl!) });
  console.log(
    `\n## What the watcher reads per block, by open native-coin orders (${blocks} blocks with ${perBlock} unrelated transfers each, one native payment among them when orders are open; provider pool, batching on)`,
  );
  console.log("| open native-coin orders | JSON-RPC calls per block | HTTP requests per block | bytes per block (sent + received) | native payments found |");
  console.log("|---|---|---|---|---|");
  try {
    for (const open of [0, 10, 1000]) {
      const addresses = await insertNativeOrders(db, chain, merchantId, walletAddress, open, nonce);
      nonce += open;
      await watchChainTick(db, chain, direct, { checkInternalDeposits: false }); // cursor at head
      const client = createChainClient(chain, createProviderPool([proxy.url], { batch: true }).transport);
      await testClient.setAutomine(false);
      try {
        for (let i = 0; i < blocks; i++) {
          for (let j = 0; j < perBlock; j++) {
            const paying = open > 0 && i === blocks / 2 && j === 0;
            const to = paying
              ? addresses[Math.floor(addresses.length / 2)]!
              : (`0x${(0xdead0000 + i * perBlock + j).toString(16).padStart(40, "0")}` as Address);
            await sender.sendTransaction({ to, value: paying ? parseEther("1") : 1n });
          }
          await testClient.mine({ blocks: 1 });
        }
      } finally {
        await testClient.setAutomine(true);
      }
      proxy.resetCounts();
      const head = await direct.getBlockNumber();
      let scanned = 0;
      for (let tick = 0; tick < 20; tick++) {
        const result = await watchChainTick(db, chain, client, { checkInternalDeposits: false });
        if (result.scan.toBlock !== null && result.scan.fromBlock !== null) scanned += Number(result.scan.toBlock - result.scan.fromBlock + 1n);
        if (result.scan.toBlock === null || result.scan.toBlock >= head) break;
      }
      const found =
        open > 0
          ? (await db.select({ status: paymentOrders.status }).from(paymentOrders).where(inArray(paymentOrders.receivingAddress, addresses))).filter(
              (o) => o.status !== "pending",
            ).length
          : 0;
      const each = (n: number) => fmt(n / Math.max(1, scanned), 2);
      console.log(
        `| ${open.toLocaleString("en-US")} | ${each(proxy.calls.length)} | ${each(proxy.httpRequests)} | ${fmt((proxy.bytes.received + proxy.bytes.sent) / Math.max(1, scanned), 0)} | ${found} of ${open > 0 ? 1 : 0} |`,
      );
      // Closed again, so the next row (and the provider scenarios) start from their own count.
      if (addresses.length) await db.update(paymentOrders).set({ status: "expired" }).where(inArray(paymentOrders.receivingAddress, addresses));
    }
  } finally {
    await proxy.close();
  }
}

/** `npm run bench -- scanner-cost`: the per-block table alone, on a database and devnet of its own. */
export async function runScannerCostBench(): Promise<void> {
  const database = await createBenchDatabase("scanner_cost");
  const devnet = await startDevnet();
  try {
    await ensureGatewayContracts(devnet.rpcUrl);
    setDevnetRpcUrl(devnet.rpcUrl);
    const chain = findBlockchainBySlug("base")!;
    const account = { username: "scancost", email: "scancost@example.com", password: "bench-password", shop_name: "Bench" };
    await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const merchantId = (await database.db.select().from(merchants).where(eq(merchants.username, "scancost")))[0]!.id;
    await measureCostByNativeOrders(database.db, chain, merchantId, "0x000000000000000000000000000000000000bEEF");
  } finally {
    setDevnetRpcUrl(undefined);
    await devnet.stop();
    await database.close();
  }
}

/** Scanner cost with 10,000 open orders on one chain, and detection latency of 20 payments with a 250 ms poll. */
export async function runScannerBench(): Promise<void> {
  const database = await createBenchDatabase("scanner");
  const devnet = await startDevnet();
  try {
    await ensureGatewayContracts(devnet.rpcUrl);
    setDevnetRpcUrl(devnet.rpcUrl);
    const chain = findBlockchainBySlug("base")!;
    const db = database.db;

    const account = { username: "scanbench", email: "scan@example.com", password: "bench-password", shop_name: "Bench" };
    await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const tokens = await (await login(request("POST", "/api/auth/login", { body: account }), noParams)).json();
    await db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 10_000_000 }).where(eq(merchants.username, "scanbench"));
    const walletAddress = "0x000000000000000000000000000000000000bEEF" as Address;
    await createWallet(
      request("POST", "/api/merchant-wallets/", {
        token: tokens.access,
        body: { blockchain: chain.id, wallet_address: walletAddress, confirmation_threshold: 1 },
      }),
      noParams,
    );
    const merchantId = (await db.select().from(merchants).where(eq(merchants.username, "scanbench")))[0]!.id;

    const { client, counter } = countingClient(chain, devnet.rpcUrl);
    await watchChainTick(db, chain, client, { checkInternalDeposits: false }); // cursor at head
    const empty = await measureRpcPerBlock(db, chain, client, counter, 50);

    // 10,000 open orders on the chain
    const now = new Date();
    const usdc = chain.tokens.find((t) => t.symbol === "USDC")!;
    for (let batch = 0; batch < 10; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const salt = newOrderSalt();
        return {
          orderId: `ORD-bench${batch}x${i}`,
          merchantId,
          nonce: batch * 1000 + i + 1,
          blockchainId: chain.id,
          currency: "USDC",
          tokenAddress: usdc.address,
          decimals: 6,
          amount: "1000000",
          amountReceived: "0",
          status: "pending",
          receivingAddress: computeDepositAddress({ factory: chain.factory!, implementation: chain.implementation!, destination: walletAddress, salt }),
          depositDestination: walletAddress,
          depositSalt: salt,
          depositFactory: chain.factory!,
          orderInfo: "{}",
          confirmationThreshold: 1,
          expiresAt: new Date(now.getTime() + 24 * 3600_000),
          createdAt: now,
          updatedAt: now,
        };
      });
      await db.insert(paymentOrders).values(rows);
    }
    const loaded = await measureRpcPerBlock(db, chain, client, counter, 50);
    const singles: number[] = [];
    for (let i = 0; i < 20; i++) singles.push((await measureRpcPerBlock(db, chain, client, counter, 1)).tickMs);
    singles.sort((a, b) => a - b);

    // Detection latency: a 250 ms poll loop (the sandbox interval), 20 payments.
    const latencies: number[] = [];
    let polling = true;
    const loop = (async () => {
      while (polling) {
        await watchChainTick(db, chain, client, { checkInternalDeposits: false }).catch(() => {});
        await new Promise((r) => setTimeout(r, chain.pollIntervalMs));
      }
    })();
    for (let i = 0; i < 20; i++) {
      const res = await createOrderRoute(
        request("POST", "/api/payment-orders/", {
          token: tokens.access,
          body: { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 100_000 + i },
        }),
        noParams,
      );
      const order = (await res.json()).data;
      await new Promise((r) => setTimeout(r, Math.random() * chain.pollIntervalMs));
      await sendFromFaucet(chain, usdc, order.receiving_address, 1_000_000n); // returns once the block is mined
      const included = performance.now();
      for (;;) {
        const [row] = await db.select({ status: paymentOrders.status }).from(paymentOrders).where(eq(paymentOrders.orderId, order.order_id));
        if (row!.status !== "pending") break;
        await new Promise((r) => setTimeout(r, 5));
      }
      latencies.push(performance.now() - included);
    }
    polling = false;
    await loop;
    latencies.sort((a, b) => a - b);

    console.log("\n## Chain scanner (hardhat devnet, PostgreSQL)");
    console.log(`RPC requests per scanned block: ${fmt(empty.perBlock)} with 0 open orders, ${fmt(loaded.perBlock)} with 10,000 open orders (50-block ticks)`);
    console.log(`time per 50-block tick with 10,000 open orders: ${fmt(loaded.tickMs, 0)} ms`);
    console.log(`time per 1-block tick with 10,000 open orders: p50 ${fmt(percentile(singles, 50), 1)} ms, max ${fmt(singles.at(-1)!, 1)} ms`);
    console.log(
      `detection latency (block mined → order processing, ${chain.pollIntervalMs} ms poll, 20 payments): median ${fmt(percentile(latencies, 50), 0)} ms, max ${fmt(latencies.at(-1)!, 0)} ms (target ≤ ${chain.pollIntervalMs + 100} ms)`,
    );

    await measureCostByNativeOrders(db, chain, merchantId, walletAddress);
    await runProviderScenarios(db, chain, tokens.access);
  } finally {
    setDevnetRpcUrl(undefined);
    await devnet.stop();
    await database.close();
  }
}
