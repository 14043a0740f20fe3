import { env } from "@/lib/env";
import { processSlot } from "@/lib/process-singleton";

/**
 * The request header carrying the TCP peer's address. The server sets it on every request from
 * the socket (`capturePeerAddresses`, installed at startup), overwriting whatever a client sent,
 * because Next keeps a client's own `X-Forwarded-For` and never tells route handlers the socket.
 */
export const peerAddressHeader = "x-gateway-peer-address";

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
const peerCapture = processSlot<boolean>("peerCapture");

/**
 * Makes every node:http server of this process stamp the socket's address on each request before
 * Next sees it. Called once from the server's startup (instrumentation), so it runs in the process
 * that serves HTTP.
 */
export async function capturePeerAddresses(): Promise<void> {
  if (peerCapture.get()) return;
  peerCapture.set(true);
  const http = await import("node:http");
  const original = http.Server.prototype.emit as Emit;
  http.Server.prototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as import("node:http").IncomingMessage;
      request.headers[peerAddressHeader] = request.socket?.remoteAddress ?? "";
    }
    return original.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`. */
function normalise(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed;
}

/**
 * The client's address. With `TRUST_PROXY` = 0 (the default) it is the TCP peer and any
 * `X-Forwarded-For` is ignored (a client can write anything there). With N trusted proxies in
 * front, it is the address the outermost trusted proxy saw: the N-th `X-Forwarded-For` entry from
 * the right (each proxy appends the address it received the request from), as Express's numeric
 * `trust proxy` does; entries left of it are the client's own claims and are never used. With
 * fewer entries than N, the leftmost is the furthest known. "unknown" when nothing is known
 * (requests made in-process).
 */
export function clientIpOf(request: Request): string {
  const peer = request.headers.get(peerAddressHeader)?.trim();
  const hops = env.TRUST_PROXY;
  if (hops > 0) {
    const entries = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (entries.length > 0) return normalise(entries[Math.max(0, entries.length - hops)]!);
  }
  return peer ? normalise(peer) : "unknown";
}

/**
 * Whom a per-client limit counts: the address itself for IPv4, its /64 network for IPv6. One
 * subscriber usually gets a whole /64 (2^64 addresses), so counting IPv6 per address would give
 * every client an unlimited supply of fresh quotas (issue 24).
 */
export function clientLimitSubject(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("%")[0]!.split("::", 2) as [string, string?];
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail ("::1.2.3.4") takes two groups; only the first four groups matter here.
  const groups = address.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  if (groups.length < 4) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}
