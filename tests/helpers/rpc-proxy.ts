import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** What the proxy does with one JSON-RPC call: pass it on, answer a JSON-RPC error, answer an HTTP status, or never answer. */
export type RpcBehaviour = "forward" | "hang" | { rpcError: { code: number; message: string } } | { httpStatus: number };

export interface RpcProxy {
  readonly url: string;
  /** Calls the proxy misbehaved on, in order. */
  readonly faults: RpcCall[];
  /** How to treat each call from now on (default: forward everything). */
  behave(decide: (call: RpcCall) => RpcBehaviour): void;
  close(): Promise<void>;
}

/**
 * A misbehaving JSON-RPC node for fault tests: a node:http server on 127.0.0.1 that forwards each
 * call to a real node (the devnet) unless told to fail it (a JSON-RPC error, a 5xx, or a hang
 * the client times out on). Batches are forwarded whole.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let decide: (call: RpcCall) => RpcBehaviour = () => "forward";
  const faults: RpcCall[] = [];
  const hanging = new Set<ServerResponse>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] } | unknown[];
    if (!Array.isArray(parsed)) {
      const call = { method: parsed.method, params: parsed.params ?? [] };
      const behaviour = decide(call);
      if (behaviour !== "forward") {
        faults.push(call);
        if (behaviour === "hang") {
          hanging.add(res);
          return;
        }
        if ("httpStatus" in behaviour) {
          res.writeHead(behaviour.httpStatus, { "content-type": "text/plain" });
          res.end("upstream unavailable");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, error: behaviour.rpcError }));
        return;
      }
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    behave(next) {
      decide = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
