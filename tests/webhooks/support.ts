/** Shared pieces of the webhook tests: a real HTTP receiver on loopback, mode switching, orders with events. */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { POST as loginRoute } from "@/app/api/auth/login/route";
import { createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (for timeouts). */
  hang?: boolean;
  /** Answer only after this many milliseconds (a slow receiver). */
  delayMs?: number;
}

export interface Receiver {
  url(path?: string): string;
  readonly requests: Received[];
  /** How to answer the next requests (default 200 "ok"). */
  reply(fn: (request: Received, index: number) => Reply): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 and a free port that records every request. */
export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let replier: (request: Received, index: number) => Reply = () => ({ status: 200, body: "ok" });
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const hanging = new Set<import("node:http").ServerResponse>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: Received = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      const index = requests.push(received) - 1;
      for (const waiter of [...waiters]) if (requests.length >= waiter.count) waiter.resolve();
      const reply = replier(received, index);
      if (reply.hang) {
        hanging.add(res);
        return;
      }
      const answer = () => {
        hanging.delete(res);
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "");
      };
      if (!reply.delayMs) return answer();
      hanging.add(res);
      setTimeout(answer, reply.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    requests,
    reply(fn) {
      replier = fn;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${requests.length} requests, expected ${count}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs `fn` as if the deployment were in `mode` (env is read at call time by the URL policy and the wrapper). */
export async function inMode<T>(mode: "live" | "sandbox", fn: () => Promise<T>): Promise<T> {
  const previous = env.GATEWAY_MODE;
  env.GATEWAY_MODE = mode;
  try {
    return await fn();
  } finally {
    env.GATEWAY_MODE = previous;
  }
}

/** A pending order made through the real API (its merchant gets a wallet on base first, once). */
export async function orderFor(merchant: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  const withWallet = merchant as TestMerchant & { hasWallet?: boolean };
  if (!withWallet.hasWallet) {
    await createWallet(merchant);
    withWallet.hasWallet = true;
  }
  return createOrder(merchant, body);
}

/** Records an order event the way an order transition will (in its own transaction). */
export async function recordEventFor(db: Db, merchant: TestMerchant, order: any, type = "payment.confirmed", data: unknown = order) {
  return db.transaction((tx) => recordOrderEvent(tx, { merchantId: merchant.id, paymentOrderId: order.id, type, data, webhookUrl: order.webhook_url ?? null }));
}

export async function deliveryRow(db: Db, id: number) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

export async function attemptRows(db: Db, deliveryId: number) {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.id);
}

export async function endpointRow(db: Db, id: number) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row!;
}

// Independent re-implementations of the two checks a receiver makes, so a bug in
// lib/webhooks/signing.ts cannot make its own output look valid.

export function specSignatureOk(body: string, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(body).digest("hex"));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function standardSignatureOk(request: Pick<Received, "headers" | "body">, secret: string): boolean {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signature = request.headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signature !== "string") return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest("base64");
  return signature.split(" ").some((part) => {
    const [version, mac] = part.split(",");
    return version === "v1" && mac !== undefined && mac.length === expected.length && timingSafeEqual(Buffer.from(mac), Buffer.from(expected));
  });
}

/** Settles every pending delivery, so one test's leftovers never fall due in the next (clocks move forward). */
export async function settlePending(db: Db) {
  await db.update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null }).where(eq(webhookDeliveries.status, "pending"));
}

/** An access token a live deployment accepts (tokens are bound to their mode: issue 13). */
export async function liveAccess(merchant: TestMerchant): Promise<string> {
  const res = await inMode("live", () =>
    call(loginRoute, "POST", "/api/auth/login", { body: { username: merchant.username, password: merchant.password }, ip: "198.18.200.1" }),
  );
  if (res.status !== 200) throw new Error(`live login failed: ${res.status}`);
  return res.body.access;
}
