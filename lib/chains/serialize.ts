import type { Blockchain } from "@/lib/chains/catalog";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The RPC URL as the public may see it. Hosted RPC URLs usually carry the operator's API key
 * (`https://base-mainnet.g.alchemy.com/v2/<key>`, `https://user:pass@node…`, `?apikey=…`), and
 * telling a key-free path from a key is guesswork, so for anything but a loopback devnet only the
 * origin (scheme, host, port) is served: it names the provider without the credential. Loopback
 * URLs (the sandbox devnet) are served whole, minus any userinfo. Unparseable URLs are withheld.
 */
export function publicRpcUrl(rpcUrl: string | null): string | null {
  if (!rpcUrl) return null;
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "ws:" && url.protocol !== "wss:") return null;
  const loopback = loopbackHosts.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (!loopback) return `${url.protocol}//${url.host}`;
  url.username = "";
  url.password = "";
  return url.toString().replace(/\/$/, "");
}

/** A network as GET /api/blockchains/ lists it (DESIGN › Shapes). */
export function serializeBlockchain(chain: Blockchain) {
  return {
    id: chain.id,
    slug: chain.slug,
    name: chain.name,
    chain_id: chain.chainId,
    rpc_url: publicRpcUrl(chain.rpcUrl),
    default_confirmations: chain.defaultConfirmations,
    native_currency: chain.nativeCurrency.symbol,
    tokens: chain.tokens.map((t) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals })),
  };
}
