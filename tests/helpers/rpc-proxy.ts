import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcCall {
  method: string;
  params: unknown[];
}

/**
 * What the proxy does with one JSON-RPC call: pass it on, answer a JSON-RPC error, answer an HTTP
 * status (429 with a Retry-After), pass it on late, or never answer. In a batch, an HTTP status or
 * a hang of any call applies to the whole HTTP request (as a provider's front door does).
 */
export type RpcBehaviour =
  "forward" | "hang" | { rpcError: { code: number; message: string } } | { httpStatus: number; retryAfterSeconds?: number } | { delayMs: number };

/** How real providers word an eth_getLogs refusal (the scanner must understand each). */
export const logRefusals = {
  alchemy: (from: bigint, to: bigint) => ({
    code: -32602,
    message: `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x${from.toString(16)}, 0x${to.toString(16)}]`,
  }),
  infura: () => ({ code: -32005, message: "query returned more than 10000 results. Try with this block range [0x1, 0x2]." }),
  quicknode: (limit: number) => ({ code: -32614, message: `eth_getLogs is limited to a ${limit.toLocaleString("en-US")} range` }),
  ankr: () => ({ code: -32600, message: "block range is too wide" }),
  geth: (limit: number) => ({ code: -32000, message: `exceed maximum block range: ${limit}` }),
};

export type LogRefusalWording = "alchemy" | "quicknode" | "ankr" | "geth";

interface LogsLimit {
  maxBlocks: number;
  wording: LogRefusalWording;
}

export interface RpcProxy {
  readonly url: string;
  /** Calls the proxy misbehaved on, in order. */
  readonly faults: RpcCall[];
  /** Every JSON-RPC call received (batched ones counted one by one). */
  readonly calls: RpcCall[];
  /** HTTP requests received (a batch is one). */
  readonly httpRequests: number;
  /** HTTP requests answered with an HTTP error status (429, 503, …) instead of forwarded. */
  readonly refusedRequests: number;
  /** Bytes of the HTTP request bodies received and of the answers sent (what a provider would bill and carry). */
  readonly bytes: { received: number; sent: number };
  /**
   * How to treat each call from now on (default: forward everything). `perRequest`: decide once per
   * HTTP request (its first call) and apply that to every call in it, as a provider's rate limiter does.
   */
  behave(decide: (call: RpcCall) => RpcBehaviour, options?: { perRequest?: boolean }): void;
  /** Refuse eth_getLogs over more than `maxBlocks` blocks, in a provider's words (null: no limit). */
  limitLogs(limit: LogsLimit | null): void;
  /** Serve a head this many blocks behind the node: eth_blockNumber and "latest" lag, newer blocks are unknown (null). */
  lagHead(blocks: number): void;
  /** Answer every HTTP request this much later (a remote provider's round trip; 0: none). */
  roundTrip(ms: number): void;
  /**
   * Change what the node answered to a call before it goes back (a lying provider): `rewrite`
   * gets the call and the node's result and returns the result to send (null: stop rewriting).
   */
  rewrite(rewrite: ((call: RpcCall, result: unknown) => unknown | Promise<unknown>) | null): void;
  resetCounts(): void;
  close(): Promise<void>;
}

interface JsonRpcRequest {
  jsonrpc?: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

/**
 * A misbehaving JSON-RPC provider for fault tests and benchmarks: a node:http server on 127.0.0.1
 * that forwards each call to a real node (the devnet) unless told to fail it (a JSON-RPC error, a
 * 5xx, a 429 with Retry-After, a delay, a hang the client times out on), refuses eth_getLogs
 * ranges as providers word it, can lag its head behind the node's, add a remote provider's round
 * trip, rewrite what the node answered (a lying provider), and counts the bytes it carries.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let decide: (call: RpcCall) => RpcBehaviour = () => "forward";
  let perRequest = false;
  let logsLimit: LogsLimit | null = null;
  let lag = 0;
  let roundTripMs = 0;
  let rewriteResult: ((call: RpcCall, result: unknown) => unknown | Promise<unknown>) | null = null;
  const bytes = { received: 0, sent: 0 };
  const faults: RpcCall[] = [];
  const calls: RpcCall[] = [];
  let httpRequests = 0;
  let refusedRequests = 0;
  const hanging = new Set<ServerResponse>();

  async function upstream(body: unknown): Promise<unknown> {
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json();
  }

  async function nodeHead(): Promise<bigint> {
    const answer = (await upstream({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as { result: string };
    return BigInt(answer.result);
  }

  /** One call's answer (the JSON-RPC response object), with the lag and the logs limit applied. */
  async function answer(request: JsonRpcRequest): Promise<unknown> {
    const reply = (result: unknown) => ({ jsonrpc: "2.0", id: request.id, result });
    const params = request.params ?? [];
    if (lag > 0) {
      const head = (await nodeHead()) - BigInt(lag);
      const hex = `0x${(head < 0n ? 0n : head).toString(16)}`;
      if (request.method === "eth_blockNumber") return reply(hex);
      if (request.method === "eth_getBlockByNumber") {
        if (params[0] === "latest") return upstream({ ...request, params: [hex, ...params.slice(1)] });
        if (typeof params[0] === "string" && params[0].startsWith("0x") && BigInt(params[0]) > head) return reply(null);
      }
    }
    if (request.method === "eth_getLogs" && logsLimit) {
      const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      const head = await nodeHead();
      const from = filter.fromBlock?.startsWith("0x") ? BigInt(filter.fromBlock) : head;
      const to = filter.toBlock?.startsWith("0x") ? BigInt(filter.toBlock) : head;
      if (to - from + 1n > BigInt(logsLimit.maxBlocks)) {
        const limit = logsLimit.maxBlocks;
        const error =
          logsLimit.wording === "alchemy"
            ? logRefusals.alchemy(from, from + BigInt(limit) - 1n)
            : logsLimit.wording === "quicknode"
              ? logRefusals.quicknode(limit)
              : logsLimit.wording === "ankr"
                ? logRefusals.ankr()
                : logRefusals.geth(limit);
        faults.push({ method: request.method, params });
        return { jsonrpc: "2.0", id: request.id, error };
      }
    }
    const answered = (await upstream(request)) as { result?: unknown };
    if (rewriteResult && answered && "result" in answered) {
      return { ...answered, result: await rewriteResult({ method: request.method, params }, answered.result) };
    }
    return answered;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    httpRequests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    bytes.received += body.length;
    if (roundTripMs > 0) await new Promise((resolve) => setTimeout(resolve, roundTripMs));
    const parsed = JSON.parse(body.toString("utf8")) as JsonRpcRequest | JsonRpcRequest[];
    const requests = Array.isArray(parsed) ? parsed : [parsed];
    let first: RpcBehaviour | null = null;
    const behaviours = requests.map((request) => {
      const call = { method: request.method, params: request.params ?? [] };
      calls.push(call);
      const behaviour = perRequest && first !== null ? first : decide(call);
      first ??= behaviour;
      if (behaviour !== "forward") faults.push(call);
      return behaviour;
    });
    if (behaviours.includes("hang")) {
      hanging.add(res);
      return;
    }
    const refused = behaviours.find((b): b is { httpStatus: number; retryAfterSeconds?: number } => typeof b === "object" && "httpStatus" in b);
    if (refused) {
      refusedRequests += 1;
      const headers: Record<string, string> = { "content-type": "text/plain" };
      if (refused.retryAfterSeconds !== undefined) headers["retry-after"] = String(refused.retryAfterSeconds);
      res.writeHead(refused.httpStatus, headers);
      res.end(refused.httpStatus === 429 ? "Too Many Requests" : "upstream unavailable");
      return;
    }
    const delay = Math.max(0, ...behaviours.map((b) => (typeof b === "object" && "delayMs" in b ? b.delayMs : 0)));
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const answers = await Promise.all(
      requests.map((request, i) => {
        const behaviour = behaviours[i]!;
        if (typeof behaviour === "object" && "rpcError" in behaviour) return { jsonrpc: "2.0", id: request.id, error: behaviour.rpcError };
        return answer(request);
      }),
    );
    const text = JSON.stringify(Array.isArray(parsed) ? answers : answers[0]);
    bytes.sent += Buffer.byteLength(text);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(text);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    calls,
    get httpRequests() {
      return httpRequests;
    },
    get refusedRequests() {
      return refusedRequests;
    },
    bytes,
    behave(next, options) {
      decide = next;
      perRequest = options?.perRequest ?? false;
    },
    limitLogs(limit) {
      logsLimit = limit;
    },
    lagHead(blocks) {
      lag = blocks;
    },
    roundTrip(ms) {
      roundTripMs = ms;
    },
    rewrite(next) {
      rewriteResult = next;
    },
    resetCounts() {
      calls.length = 0;
      faults.length = 0;
      httpRequests = 0;
      refusedRequests = 0;
      bytes.received = 0;
      bytes.sent = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
