import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPublicClient, erc20Abi, http as viemHttp, parseUnits, type Address, type Hex } from "viem";
import { devnetContracts } from "@/lib/chains/catalog";
import { devnetChain } from "@/lib/chains/devnet";
import { readDevnetRecord } from "@/lib/chains/devnet-record";
import { openDatabase } from "@/lib/db/client";
import { backend } from "../helpers/db";
import { randomAddress } from "../helpers/factories";
import { buildTimeoutMs, createServerDatabase, ensureBuilt, freePort, startServer, type ServerDatabase, type ServerProcess } from "../helpers/server";
import { http, listAll, printSummary, signUp, waitFor, type Account } from "./support";

// Two `next start` instances on one PostgreSQL database and one sandbox devnet (PGlite serves one
// process, so PostgreSQL only). They start at the same moment and must end on one devnet with one
// set of contracts (the start lock). Then sandbox pays, faucet drips and mines go to both at once:
// every one is answered 2xx and is on chain (the devnet picks the faucet's nonces, so the two
// processes never race on them), every order confirms once, and the sweeper (an exclusive task,
// whichever instance holds it) flushes every deposit into the merchant's wallet.

const PAYS = 20;
const DRIPS = 6;
const MINES = 4;
const authSecret = randomBytes(32).toString("base64url");
let database: ServerDatabase;
let servers: ServerProcess[] = [];

const serverEnv = (devnetPort: number) => ({
  AUTH_SECRET: authSecret,
  DEVNET: "start",
  DEVNET_RPC_URL: undefined,
  DEVNET_PORT: String(devnetPort),
  JOBS_DRIVER: "local",
  RATE_LIMIT_STANDARD_PER_HOUR: "100000",
  SANDBOX_FAUCET_SENDS_PER_HOUR: "10000",
  LOG_LEVEL: "warn",
});

describe.runIf(backend === "postgres")("two instances sharing one devnet", () => {
  beforeAll(async () => {
    await ensureBuilt();
    database = await createServerDatabase();
    // Migrated first: two servers migrating one empty database at the same moment collide in
    // drizzle's migrator (a separate matter from the devnet, which they do start together below).
    await (await openDatabase({ url: database.env.DATABASE_URL! })).close();
  }, buildTimeoutMs);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  test(
    "concurrent sandbox pays, faucet drips and mines split across two instances: all 2xx, all on chain, every order confirmed once and swept",
    { timeout: 300_000 },
    async () => {
      const devnetPort = await freePort();
      // Both at once, and both kept for afterAll even when one of them fails to start.
      const starts = await Promise.allSettled([
        startServer({ database, env: serverEnv(devnetPort), readyTimeoutMs: 180_000 }),
        startServer({ database, env: serverEnv(devnetPort), readyTimeoutMs: 180_000 }),
      ]);
      servers = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      for (const s of starts) if (s.status === "rejected") throw s.reason;
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const recorded = readDevnetRecord(database.devnetStateFile)!;
      const merchant: Account = await signUp(a);
      const call = (server: ServerProcess, method: string, path: string, json?: unknown) => http(server, method, path, { token: merchant.access, json });
      const rpcUrls = await Promise.all(
        servers.map(async (s) => (await call(s, "GET", "/api/blockchains/")).body.results.find((c: { slug: string }) => c.slug === "base").rpc_url as string),
      );
      expect(rpcUrls).toEqual([recorded.rpcUrl, recorded.rpcUrl]);
      const wallet = randomAddress() as Address;
      expect((await call(a, "POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: wallet, confirmation_threshold: 2 })).status).toBe(201);
      const orders: { order_id: string; amount: string }[] = [];
      for (let i = 0; i < PAYS; i++) {
        const res = await call(i % 2 ? b : a, "POST", "/api/payment-orders/", {
          amount: `${i + 1}.5`,
          currency: "USDC",
          blockchain: "base",
          order_info: "{}",
          nonce: i + 1,
        });
        expect(res.status).toBe(201);
        orders.push(res.body.data);
      }

      // All at once, alternating instances: pays, faucet drips (tokens and native coin) and mines.
      const dripTargets = Array.from({ length: DRIPS }, () => randomAddress() as Address);
      const started = Date.now();
      const [pays, drips, mines] = await Promise.all([
        Promise.all(orders.map((o, i) => call(i % 2 ? b : a, "POST", `/api/sandbox/payment-orders/${o.order_id}/pay/`))),
        Promise.all(
          dripTargets.map((to, i) =>
            call(i % 2 ? a : b, "POST", "/api/sandbox/faucet/", { address: to, currency: i % 3 ? "USDT" : "ETH", amount: "3", blockchain: "base" }),
          ),
        ),
        Promise.all(Array.from({ length: MINES }, (_, i) => call(i % 2 ? a : b, "POST", "/api/sandbox/mine/", { blocks: 1, blockchain: "base" }))),
      ]);
      const burstSeconds = (Date.now() - started) / 1000;
      const statuses = [...pays, ...drips, ...mines].map((r) => r.status);

      const chain = createPublicClient({ chain: devnetChain, transport: viemHttp(recorded.rpcUrl) });
      const receiptOk = async (hash: Hex | undefined) =>
        !!hash &&
        (await chain.getTransactionReceipt({ hash }).then(
          (r) => r.status === "success",
          () => false,
        ));
      const paysOnChain = await Promise.all(pays.map((r) => receiptOk(r.body?.data?.transaction_hash)));
      const dripsOnChain = await Promise.all(drips.map((r) => receiptOk(r.body?.data?.transaction_hash)));
      const dripBalances = await Promise.all(
        dripTargets.map((to, i) =>
          i % 3
            ? chain.readContract({ address: devnetContracts.USDT, abi: erc20Abi, functionName: "balanceOf", args: [to] })
            : chain.getBalance({ address: to }),
        ),
      );

      // Confirmations, then every order confirmed and every deposit swept into the merchant's wallet.
      expect((await call(b, "POST", "/api/sandbox/mine/", { blocks: 2, blockchain: "base" })).status).toBe(200);
      const expectedSwept = orders.reduce((sum, o) => sum + parseUnits(o.amount, 6), 0n);
      const walletBalance = () => chain.readContract({ address: devnetContracts.USDC, abi: erc20Abi, functionName: "balanceOf", args: [wallet] });
      await waitFor(
        "every order confirmed and swept",
        async () => {
          const all = await Promise.all(orders.map(async (o, i) => (await call(i % 2 ? a : b, "GET", `/api/payment-orders/${o.order_id}/`)).body.data.status));
          return all.every((s) => s === "confirmed") && (await walletBalance()) === expectedSwept;
        },
        180_000,
        500,
      );
      const settledSeconds = (Date.now() - started) / 1000;
      const final = await Promise.all(orders.map(async (o) => (await call(a, "GET", `/api/payment-orders/${o.order_id}/`)).body.data));
      const events = new Map<string, number>();
      for (const e of await listAll(a, "/api/events/?event=payment.confirmed", merchant.access)) events.set(e.order_id, (events.get(e.order_id) ?? 0) + 1);
      const transfersPerOrder = new Map<string, number>();
      for (const tx of await listAll(b, "/api/transactions/", merchant.access)) {
        const single = await call(b, "GET", `/api/transactions/${tx.transaction_hash}/`);
        const orderId = single.body.data.payment_order?.order_id as string | undefined;
        if (orderId) transfersPerOrder.set(orderId, (transfersPerOrder.get(orderId) ?? 0) + 1);
      }

      printSummary("two instances, one devnet, concurrent sandbox pays", {
        acknowledged: pays.filter((r) => r.status === 201).length,
        found: paysOnChain.filter(Boolean).length,
        lost: pays.filter((r, i) => r.status === 201 && !paysOnChain[i]).length,
        duplicated: orders.filter((o) => (events.get(o.order_id) ?? 0) > 1 || (transfersPerOrder.get(o.order_id) ?? 0) > 1).length,
        "5xx": statuses.filter((s) => s >= 500).length,
        non_2xx: statuses.filter((s) => s < 200 || s >= 300).length,
        drips_on_chain: dripsOnChain.filter(Boolean).length,
        burst_seconds: Math.round(burstSeconds * 10) / 10,
        confirmed_and_swept_seconds: Math.round(settledSeconds * 10) / 10,
      });
      expect(statuses.filter((s) => s < 200 || s >= 300)).toEqual([]);
      expect(paysOnChain).toEqual(orders.map(() => true));
      expect(dripsOnChain).toEqual(dripTargets.map(() => true));
      expect(dripBalances).toEqual(dripTargets.map((_, i) => (i % 3 ? parseUnits("3", 6) : parseUnits("3", 18))));
      expect(final.map((o) => [o.status, o.amount_received])).toEqual(orders.map((o) => ["confirmed", o.amount]));
      expect(orders.map((o) => events.get(o.order_id))).toEqual(orders.map(() => 1));
      expect(orders.map((o) => transfersPerOrder.get(o.order_id))).toEqual(orders.map(() => 1));
      expect(await walletBalance()).toBe(expectedSwept);
    },
  );
});
