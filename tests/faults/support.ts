/** Shared machinery of the fault-injection group: HTTP against a `next start` child, accounts, waiting, summary lines. */
import { randomBytes } from "node:crypto";
import { backend } from "../helpers/db";
import { recordPhase, timed } from "../helpers/profile";
import type { ServerProcess } from "../helpers/server";

export const sleep = (ms: number) => timed("fixed sleep", () => new Promise((resolve) => setTimeout(resolve, ms)));

export interface HttpResult {
  status: number;
  headers: Headers;
  /** Parsed JSON, or `{ unparsed: text }` when the answer is not JSON. */
  body: any;
}

export interface HttpOptions {
  json?: unknown;
  /** Sent as-is (malformed bodies). */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One request to a server (a base URL or a server process); never throws on an HTTP status. */
export async function http(target: ServerProcess | string, method: string, path: string, options: HttpOptions = {}): Promise<HttpResult> {
  const base = typeof target === "string" ? target : target.url;
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(base + path, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { unparsed: text.slice(0, 500) };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface Account {
  id: number;
  username: string;
  password: string;
  access: string;
  webhookSecret: string;
}

/** Registers and logs in a merchant over HTTP. */
export async function signUp(target: ServerProcess | string): Promise<Account> {
  const username = `flt_${randomBytes(5).toString("hex")}`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  // A distinct client address per sign-up keeps the per-address registration limit out of the way.
  const ip = `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
  const registered = await http(target, "POST", "/api/auth/register/", {
    json: { username, email: `${username}@example.com`, password, shop_name: "Fault Shop" },
    headers: { "x-forwarded-for": ip },
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await http(target, "POST", "/api/auth/login/", { json: { username, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: registered.body.user.id, username, password, access: login.body.access, webhookSecret: registered.body.webhook_secret };
}

/** Polls `probe` until it returns something truthy; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, intervalMs = 250): Promise<T> {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  try {
    for (;;) {
      try {
        const value = await probe();
        if (value) return value;
      } catch (error) {
        lastError = error;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  } finally {
    recordPhase("polling for a condition (waitFor)", performance.now() - started);
  }
}

/** Every page of a list endpoint. */
export async function listAll(target: ServerProcess | string, path: string, token: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await http(target, "GET", `${path}${sep}page=${page}&page_size=100`, { token });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.results);
    if (!res.body.next) return out;
  }
}

export interface FaultCounts {
  acknowledged: number;
  found: number;
  lost: number;
  duplicated: number;
  "5xx": number;
  [more: string]: number;
}

/** The suite's own summary line for one fault scenario: what was acknowledged, what survived, what went wrong. */
export function printSummary(scenario: string, counts: FaultCounts): void {
  const fields = Object.entries(counts)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  console.log(`[faults] ${scenario} (${backend}): ${fields}`);
}

/** The error envelope every 4xx/5xx must carry (spec › Errors). */
export function isErrorEnvelope(body: any): boolean {
  return (
    !!body &&
    body.success === false &&
    typeof body.timestamp === "string" &&
    !!body.error &&
    typeof body.error.code === "string" &&
    typeof body.error.message === "string" &&
    (body.error.details === undefined || (typeof body.error.details === "object" && body.error.details !== null))
  );
}

export interface Delivered {
  headers: import("node:http").IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with one request: answer with a status, or hang (never answer). */
export type ReceiverReply = { status: number } | { hang: true };

/**
 * A webhook receiver on a fixed loopback port that can misbehave on purpose: answer 5xx, hang
 * (the sender times out), or go down altogether (connections refused) and come back on the same port.
 */
export class FlakyReceiver {
  readonly requests: Delivered[] = [];
  private listener: import("node:http").Server | null = null;
  private readonly sockets = new Set<import("node:net").Socket>();
  private replyWith: (request: Delivered, index: number) => ReceiverReply = () => ({ status: 200 });

  private constructor(readonly port: number) {}

  static async start(): Promise<FlakyReceiver> {
    const { freePort } = await import("../helpers/server");
    const receiver = new FlakyReceiver(await freePort());
    await receiver.up();
    return receiver;
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  reply(fn: (request: Delivered, index: number) => ReceiverReply): void {
    this.replyWith = fn;
  }

  async up(): Promise<void> {
    const { createServer } = await import("node:http");
    const listener = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const received: Delivered = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
        const index = this.requests.push(received) - 1;
        const reply = this.replyWith(received, index);
        if ("hang" in reply) return;
        res.writeHead(reply.status, { "content-type": "text/plain" });
        res.end(reply.status < 300 ? "ok" : "not now");
      });
    });
    listener.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    this.listener = listener;
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(this.port, "127.0.0.1", () => resolve());
    });
  }

  /** Stops listening (new connections are refused); with `cut`, also drops open connections. */
  async down(cut = false): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    if (cut) for (const socket of this.sockets) socket.destroy();
    // Stops accepting at once; a request left hanging stays open until its sender gives up.
    listener?.close();
    listener?.closeIdleConnections();
  }

  async close(): Promise<void> {
    await this.down(true);
  }
}

export { startReceiverProcess, type ReceivedElsewhere, type ReceiverProcess } from "./receiver-process";
