import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FinalityProxy {
  readonly url: string;
  /** Answer `safe` / `finalized` with this block (null: pass the tag on, as the node answers it). */
  setTag(tag: "safe" | "finalized", block: bigint | null): void;
  /** How many times each tag was asked for. */
  readonly asked: Record<"safe" | "finalized", number>;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a real node that answers `eth_getBlockByNumber("safe" | "finalized")`
 * with the block it is told to (the node's real block at that height), so a chain whose finality
 * trails its head can be played on the devnet, where hardhat answers both tags with its latest block.
 * Everything else, batches included, is forwarded untouched.
 */
export async function startFinalityProxy(target: string): Promise<FinalityProxy> {
  const overrides: Record<"safe" | "finalized", bigint | null> = { safe: null, finalized: null };
  const asked = { safe: 0, finalized: 0 };
  const rewrite = (call: { method?: string; params?: unknown[] }) => {
    const tag = call.params?.[0];
    if (call.method !== "eth_getBlockByNumber" || (tag !== "safe" && tag !== "finalized")) return call;
    asked[tag]++;
    const block = overrides[tag];
    return block === null ? call : { ...call, params: [`0x${block.toString(16)}`, ...call.params!.slice(1)] };
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    const body = Array.isArray(parsed) ? parsed.map(rewrite) : rewrite(parsed as { method?: string; params?: unknown[] });
    try {
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(await upstream.text());
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTag: (tag, block) => (overrides[tag] = block),
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
