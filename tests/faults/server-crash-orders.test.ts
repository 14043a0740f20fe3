import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { randomAddress } from "../helpers/factories";
import { buildTimeoutMs, createServerDatabase, ensureBuilt, startServer, type ServerDatabase, type ServerProcess } from "../helpers/server";
import { http, listAll, printSummary, signUp, sleep, type Account } from "./support";

// kill -9 of `next start` in the middle of a burst of order creation, then a restart on the same
// database: every acknowledged 201 is there, nothing is half written, no nonce is used twice.

const authSecret = randomBytes(32).toString("base64url");
const serverEnv = { AUTH_SECRET: authSecret, JOBS_DRIVER: "none", RATE_LIMIT_STANDARD_PER_HOUR: "100000", LOG_LEVEL: "warn" };
let database: ServerDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  await ensureBuilt();
  database = await createServerDatabase();
}, buildTimeoutMs);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

interface Attempt {
  nonce: number;
  status: number | "no answer";
  orderId?: string;
}

// Two server starts, a sign-up (argon2) and ~70 creates: minutes on a loaded 2-core machine, so more than the default 60 s.
test(
  "kill -9 during a burst of order creation: every acknowledged order exists after restart, none half-written, no duplicate nonce",
  { timeout: 240_000 },
  async () => {
    server = await startServer({ database, env: serverEnv });
    const merchant: Account = await signUp(server);
    expect(
      (await http(server, "POST", "/api/merchant-wallets/", { token: merchant.access, json: { blockchain: 2, wallet_address: randomAddress() } })).status,
    ).toBe(201);

    // Eight clients create orders as fast as they can; the server is killed once 60 have been acknowledged.
    const attempts: Attempt[] = [];
    let nextNonce = 1;
    let killed = false;
    const victim = server;
    const client = async () => {
      while (!killed) {
        const nonce = nextNonce++;
        const attempt: Attempt = { nonce, status: "no answer" };
        attempts.push(attempt);
        try {
          const res = await http(victim, "POST", "/api/payment-orders/", {
            token: merchant.access,
            json: { amount: "1.25", currency: "USDC", blockchain: "base", order_info: JSON.stringify({ nonce }), nonce },
            timeoutMs: 10_000,
          });
          attempt.status = res.status;
          if (res.status === 201) attempt.orderId = res.body.data.order_id;
        } catch {
          // the connection died with the server
        }
      }
    };
    const killer = (async () => {
      while (attempts.filter((a) => a.status === 201).length < 60) await sleep(5);
      victim.child.kill("SIGKILL");
      killed = true;
    })();
    await Promise.all([killer, ...Array.from({ length: 8 }, client)]);
    expect(await victim.exited).toBe("SIGKILL");

    server = await startServer({ database, env: serverEnv });
    const listed = await listAll(server, "/api/payment-orders/", merchant.access);
    const full = await Promise.all(
      listed.map(async (o) => (await http(server!, "GET", `/api/payment-orders/${o.order_id}/`, { token: merchant.access })).body.data),
    );

    const acknowledged = attempts.filter((a) => a.status === 201);
    const listedIds = new Set(listed.map((o) => o.order_id));
    const found = acknowledged.filter((a) => listedIds.has(a.orderId!));
    const nonceCounts = new Map<number, number>();
    for (const o of full) nonceCounts.set(o.nonce, (nonceCounts.get(o.nonce) ?? 0) + 1);
    const duplicated = [...nonceCounts.values()].filter((n) => n > 1).length;
    // Half-written: anything a complete order must have, missing or inconsistent.
    const halfWritten = full.filter(
      (o) =>
        !o ||
        o.amount !== "1.25" ||
        o.currency !== "USDC" ||
        o.status !== "pending" ||
        o.transaction !== null ||
        !/^0x[0-9a-fA-F]{40}$/.test(o.receiving_address ?? "") ||
        o.order_info !== JSON.stringify({ nonce: o.nonce }),
    );

    // A client retries what never got an answer, with the same nonce: the nonce makes it safe.
    const unanswered = attempts.filter((a) => a.status === "no answer");
    const retried = await Promise.all(
      unanswered.map((a) =>
        http(server!, "POST", "/api/payment-orders/", {
          token: merchant.access,
          json: { amount: "1.25", currency: "USDC", blockchain: "base", order_info: JSON.stringify({ nonce: a.nonce }), nonce: a.nonce },
        }),
      ),
    );
    const afterRetry = await listAll(server, "/api/payment-orders/", merchant.access);
    const fiveXx = attempts.filter((a) => typeof a.status === "number" && a.status >= 500).length + retried.filter((r) => r.status >= 500).length;

    printSummary("kill -9 during order burst", {
      acknowledged: acknowledged.length,
      found: found.length,
      lost: acknowledged.length - found.length,
      duplicated,
      "5xx": fiveXx,
      half_written: halfWritten.length,
      in_flight_at_kill: unanswered.length,
      in_flight_committed: retried.filter((r) => r.body?.error?.code === "DUPLICATE_NONCE").length,
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    expect(found.length).toBe(acknowledged.length);
    expect(duplicated).toBe(0);
    expect(halfWritten).toEqual([]);
    expect(fiveXx).toBe(0);
    for (const r of retried) expect([201, 400]).toContain(r.status);
    for (const r of retried.filter((r) => r.status === 400)) expect(r.body.error.code).toBe("DUPLICATE_NONCE");
    // Every nonce ever tried is now exactly one order.
    expect(afterRetry).toHaveLength(
      new Set(attempts.map((a) => a.nonce)).size - attempts.filter((a) => typeof a.status === "number" && a.status !== 201).length,
    );
  },
);
