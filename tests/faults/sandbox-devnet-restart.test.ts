import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPublicClient, http as viemHttp, type Hex } from "viem";
import { devnetChain } from "@/lib/chains/devnet";
import { processGone, readDevnetRecord, type DevnetRecord } from "@/lib/chains/devnet-record";
import { randomAddress } from "../helpers/factories";
import { buildTimeoutMs, createServerDatabase, ensureBuilt, freePort, startServer, type ServerDatabase, type ServerProcess } from "../helpers/server";
import { FlakyReceiver, http, listAll, printSummary, signUp, waitFor, type Account } from "./support";

// The sandbox's devnet outlives its server: a sandbox payment the gateway acknowledged is still on
// chain after `kill -9` of `next start`, and the next server re-attaches to that very chain (the
// record in DEVNET_STATE_FILE: same pid, port, genesis) and confirms the order once. When the devnet
// itself is gone, the next server starts a fresh chain and the gateway handles the reset (new
// genesis): the vanished payment no longer counts, and paying again on the new chain confirms.

const authSecret = randomBytes(32).toString("base64url");
let database: ServerDatabase;
let receiver: FlakyReceiver;
let server: ServerProcess | undefined;
let merchant: Account;
let devnetPort: number;
const statuses: number[] = [];

const serverEnv = () => ({
  AUTH_SECRET: authSecret,
  DEVNET: "start",
  DEVNET_RPC_URL: undefined,
  DEVNET_PORT: String(devnetPort),
  JOBS_DRIVER: "local",
  WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,1,2,2,2,2",
  RATE_LIMIT_STANDARD_PER_HOUR: "100000",
  LOG_LEVEL: "warn",
});

async function api(method: string, path: string, json?: unknown) {
  const res = await http(server!, method, path, { token: merchant.access, json });
  statuses.push(res.status);
  return res;
}

async function killServer(): Promise<void> {
  const victim = server!;
  victim.child.kill("SIGKILL");
  expect(await victim.exited).toBe("SIGKILL");
  server = undefined;
}

function record(): DevnetRecord {
  const found = readDevnetRecord(database.devnetStateFile);
  if (!found) throw new Error(`no devnet recorded in ${database.devnetStateFile}`);
  return found;
}

const chainAt = (rpcUrl: string) => createPublicClient({ chain: devnetChain, transport: viemHttp(rpcUrl) });
const orderOf = async (orderId: string) => (await api("GET", `/api/payment-orders/${orderId}/`)).body.data;

/** payment.confirmed deliveries the receiver got for `orderId`, by webhook-id (one per event, however often it came). */
function confirmedDeliveries(orderId: string): Set<string> {
  const ids = new Set<string>();
  for (const r of receiver.requests) {
    const body = JSON.parse(r.body);
    if (body.event === "payment.confirmed" && body.data.order_id === orderId) ids.add(String(r.headers["webhook-id"]));
  }
  return ids;
}

async function confirmedEvents(orderId: string): Promise<number> {
  return (await listAll(server!, "/api/events/?event=payment.confirmed", merchant.access)).filter((e) => e.order_id === orderId).length;
}

async function transfersOf(orderId: string): Promise<string[]> {
  const hashes: string[] = [];
  for (const tx of await listAll(server!, "/api/transactions/", merchant.access)) {
    const single = await api("GET", `/api/transactions/${tx.transaction_hash}/`);
    if (single.body.data.payment_order?.order_id === orderId) hashes.push(tx.transaction_hash);
  }
  return hashes;
}

async function createOrder(nonce: number, amount: string) {
  const res = await api("POST", "/api/payment-orders/", { amount, currency: "USDC", blockchain: "base", order_info: "{}", nonce });
  expect(res.status).toBe(201);
  return res.body.data as { order_id: string; amount: string };
}

beforeAll(async () => {
  await ensureBuilt();
  devnetPort = await freePort();
  database = await createServerDatabase();
  receiver = await FlakyReceiver.start();
}, buildTimeoutMs);

afterAll(async () => {
  if (server) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
  await receiver?.close();
  // Stops the devnet recorded for this database (it outlives every server) and removes both.
  const pid = readDevnetRecord(database.devnetStateFile)?.pid;
  await database?.drop();
  if (pid) expect(processGone(pid)).toBe(true);
});

test(
  "kill -9 of next start after an acknowledged sandbox pay: the next server re-attaches to the same chain and confirms the order once",
  { timeout: 240_000 },
  async () => {
    server = await startServer({ database, env: serverEnv(), readyTimeoutMs: 180_000 });
    const before = record();
    expect(before.port).toBe(devnetPort);
    merchant = await signUp(server);
    expect((await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 3 })).status).toBe(201);
    expect((await api("POST", "/api/webhook-endpoints/", { url: receiver.url("/restart") })).status).toBe(201);
    const order = await createOrder(1, "12.5");

    const paid = await api("POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`);
    expect(paid.status).toBe(201);
    const hash = paid.body.data.transaction_hash as Hex;

    await killServer();
    // The devnet was not the server's to take down with it.
    expect(processGone(before.pid)).toBe(false);

    const restartedAt = Date.now();
    server = await startServer({ database, env: serverEnv(), readyTimeoutMs: 180_000 });
    const after = record();
    const chain = chainAt(after.rpcUrl);
    const genesis = await chain.getBlock({ blockNumber: 0n });
    const receipt = await chain.getTransactionReceipt({ hash });
    expect(await api("POST", "/api/sandbox/mine/", { blocks: 2, blockchain: "base" }).then((r) => r.status)).toBe(200);
    const confirmed = await waitFor(
      "the order confirmed and its payment.confirmed delivered",
      async () => (await orderOf(order.order_id)).status === "confirmed" && confirmedDeliveries(order.order_id).size > 0,
      90_000,
      250,
    ).then(() => Date.now());
    const final = await orderOf(order.order_id);
    const events = await confirmedEvents(order.order_id);
    const transfers = await transfersOf(order.order_id);
    const delivered = confirmedDeliveries(order.order_id);

    printSummary("kill -9 of next start after a sandbox pay", {
      acknowledged: 1,
      found: receipt.status === "success" && final.status === "confirmed" ? 1 : 0,
      lost: receipt.status === "success" ? 0 : 1,
      duplicated: events > 1 || transfers.length > 1 || delivered.size > 1 ? 1 : 0,
      false_confirmed: final.status === "confirmed" && receipt.status !== "success" ? 1 : 0,
      "5xx": statuses.filter((s) => s >= 500).length,
      same_devnet: after.pid === before.pid && after.genesisHash === before.genesisHash && genesis.hash === before.genesisHash ? 1 : 0,
      recovery_seconds: Math.round((confirmed - restartedAt) / 100) / 10,
    });
    expect({ pid: after.pid, port: after.port, genesis: after.genesisHash, instance: after.instanceId }).toEqual({
      pid: before.pid,
      port: before.port,
      genesis: before.genesisHash,
      instance: before.instanceId,
    });
    expect(genesis.hash).toBe(before.genesisHash);
    expect(receipt.status).toBe("success");
    expect([final.status, final.amount_received]).toEqual(["confirmed", "12.5"]);
    expect(transfers).toEqual([hash]);
    expect(events).toBe(1);
    expect(delivered.size).toBe(1);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  },
);

test(
  "Ctrl-C of the server keeps the devnet; the devnet itself killed with the server: the next server starts a fresh chain, the vanished payment stops counting, a new one confirms",
  { timeout: 240_000 },
  async () => {
    server ??= await startServer({ database, env: serverEnv(), readyTimeoutMs: 180_000 });
    const before = record();
    // Ctrl-C of the server (SIGINT to it; the devnet is in its own session): the server exits, the devnet stays.
    server.child.kill("SIGINT");
    await server.exited;
    expect(processGone(before.pid)).toBe(false);
    server = await startServer({ database, env: serverEnv(), readyTimeoutMs: 180_000 });
    expect(record()).toEqual(before);
    // Paid, one confirmation of three: processing, not confirmed, when the chain goes away.
    const order = await createOrder(2, "7.25");
    const paid = await api("POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`);
    expect(paid.status).toBe(201);
    const lostHash = paid.body.data.transaction_hash as Hex;
    await waitFor("the payment seen", async () => (await orderOf(order.order_id)).status === "processing", 60_000, 250);

    await killServer();
    process.kill(before.pid, "SIGKILL");
    await waitFor(
      "the devnet gone",
      async () =>
        processGone(before.pid) ||
        !(await chainAt(before.rpcUrl)
          .getChainId()
          .then(
            () => true,
            () => false,
          )),
      10_000,
      50,
    );

    const restartedAt = Date.now();
    server = await startServer({ database, env: serverEnv(), readyTimeoutMs: 180_000 });
    const after = record();
    expect(after.pid).not.toBe(before.pid);
    expect(after.genesisHash).not.toBe(before.genesisHash);
    const chain = chainAt(after.rpcUrl);
    expect(
      await chain.getTransactionReceipt({ hash: lostHash }).then(
        () => "found",
        () => "gone",
      ),
    ).toBe("gone");

    // The reset is detected (new genesis): the dropped transfer no longer counts.
    await waitFor("the order back to pending", async () => (await orderOf(order.order_id)).status === "pending", 90_000, 250);
    const fellBackAt = Date.now();
    // The fresh chain has the gateway contracts again (same addresses): paying there works.
    const repaid = await api("POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`);
    expect(repaid.status).toBe(201);
    expect((await api("POST", "/api/sandbox/mine/", { blocks: 2, blockchain: "base" })).status).toBe(200);
    await waitFor(
      "the order confirmed on the new chain",
      async () => (await orderOf(order.order_id)).status === "confirmed" && confirmedDeliveries(order.order_id).size > 0,
      90_000,
      250,
    );
    const final = await orderOf(order.order_id);
    const events = await confirmedEvents(order.order_id);
    const delivered = confirmedDeliveries(order.order_id);
    const lostRow = (await api("GET", `/api/transactions/${lostHash}/`)).body.data;

    printSummary("devnet killed with next start (chain replaced)", {
      acknowledged: 1,
      found: final.status === "confirmed" ? 1 : 0,
      lost: 0,
      duplicated: events > 1 || delivered.size > 1 ? 1 : 0,
      false_confirmed: final.amount_received !== "7.25" ? 1 : 0,
      "5xx": statuses.filter((s) => s >= 500).length,
      seconds_to_fall_back: Math.round((fellBackAt - restartedAt) / 100) / 10,
    });
    expect([final.status, final.amount_received]).toEqual(["confirmed", "7.25"]);
    expect([lostRow.status, lostRow.not_counted_reason]).toEqual(["failed", "reorged"]);
    expect(events).toBe(1);
    expect(delivered.size).toBe(1);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  },
);
