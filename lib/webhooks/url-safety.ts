import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, isIPv4, isIPv6 } from "node:net";
import { devnetRpcUrl } from "@/lib/chains/catalog";
import { env } from "@/lib/env";

/**
 * SSRF guard for webhook URLs (DESIGN › Webhooks). Live mode accepts only https URLs whose every
 * resolved address is public. The sandbox also allows http and loopback targets (receivers on the
 * developer's machine and the sandbox inbox), and nothing else that is not public: private,
 * link-local, CGNAT and metadata addresses stay refused, and so do the gateway's own services on
 * loopback (devnet, database, Inngest dev server; the app's own port only for the inbox path).
 * The check runs when a URL is saved and again when a delivery connects: the connection then goes
 * to the address that was checked, so a DNS answer that changes in between (rebinding) cannot
 * redirect it.
 */

export interface UrlPolicy {
  /** http:// as well as https:// */
  allowHttp: boolean;
  /** loopback targets (127.0.0.0/8, ::1), except `ownServices` */
  allowLoopback: boolean;
  /**
   * Loopback ports that are the gateway's own services, refused even when loopback is allowed.
   * A port mapped to a path prefix is allowed for URLs under that prefix only (the app's port: the inbox).
   */
  ownServices?: ReadonlyMap<number, string | null>;
}

/** Ports of services a sandbox gateway runs or talks to on this machine, by default and as configured. */
export function ownServicePorts(): Map<number, string | null> {
  const ports = new Map<number, string | null>();
  const refuse = (port: number | null) => {
    if (port && Number.isInteger(port) && port > 0) ports.set(port, null);
  };
  const loopbackPort = (raw: string | null | undefined, fallback: number): number | null => {
    if (!raw) return null;
    try {
      const url = new URL(raw);
      const host = bareHostname(url);
      if (host !== "localhost" && !(isIP(host) && nonPublicReason(host) === "a loopback address")) return null;
      return url.port ? Number(url.port) : fallback;
    } catch {
      return null;
    }
  };
  refuse(8545); // hardhat's default devnet port
  refuse(env.DEVNET_PORT);
  refuse(loopbackPort(env.DEVNET_RPC_URL, 80));
  refuse(loopbackPort(devnetRpcUrl(), 80));
  refuse(5432); // PostgreSQL
  refuse(loopbackPort(env.DATABASE_URL, 5432));
  refuse(8288); // Inngest dev server
  // The app itself, both where APP_URL says it is and where this process listens (behind a proxy,
  // or started with `next start -p`, the two differ): only its inbox is a webhook target.
  const appPort = loopbackPort(env.APP_URL, new URL(env.APP_URL).protocol === "https:" ? 443 : 80);
  for (const port of [appPort, listeningPort()]) {
    if (port && !ports.has(port)) ports.set(port, "/api/sandbox/inbox/");
  }
  return ports;
}

/**
 * The port this process serves HTTP on. Next's server (`next start -p`, `next dev`, the standalone
 * server) stores the port it listens on in process.env.PORT before it serves a request, so it is
 * read here at call time, not from the env parsed at import.
 */
export function listeningPort(): number | null {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port > 0 && port <= 65535 ? port : null;
}

/** The policy of the running deployment (read at call time, so tests can switch modes). */
export function currentUrlPolicy(): UrlPolicy {
  const sandbox = env.GATEWAY_MODE === "sandbox";
  return sandbox ? { allowHttp: true, allowLoopback: true, ownServices: ownServicePorts() } : { allowHttp: false, allowLoopback: false };
}

/** A URL the policy refuses. `permanent`: retrying cannot help (wrong scheme, private address). */
export class UnsafeUrlError extends Error {
  constructor(
    message: string,
    readonly permanent = true,
  ) {
    super(message);
    this.name = "UnsafeUrlError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS resolution, on an object so tests can stub it (`vi.spyOn(resolver, "lookupAll")`). */
export const resolver = {
  async lookupAll(hostname: string): Promise<ResolvedAddress[]> {
    const answers = await dnsLookup(hostname, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};

/** 2048: the common practical URL limit of browsers and HTTP servers. */
export const maxWebhookUrlLength = 2048;

/** Parses and checks the parts of a URL that need no DNS: scheme, credentials, host. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  if (raw.length > maxWebhookUrlLength) throw new UnsafeUrlError(`The URL must be at most ${maxWebhookUrlLength} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("Enter a valid absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UnsafeUrlError("The URL must use https.");
  if (url.protocol === "http:" && !policy.allowHttp) throw new UnsafeUrlError("The URL must use https (http is allowed only in the sandbox).");
  if (url.username || url.password) throw new UnsafeUrlError("The URL must not contain credentials.");
  if (!url.hostname) throw new UnsafeUrlError("The URL must name a host.");
  return url;
}

/** The hostname as a bare address or name (URL keeps IPv6 literals in brackets). */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

// ─── Address classification ─────────────────────────────────────────────────

const ipv4Ranges: Array<[base: string, prefix: number, label: string]> = [
  ["169.254.169.254", 32, "a cloud metadata address"],
  ["0.0.0.0", 8, "an unspecified address"],
  ["10.0.0.0", 8, "a private address"],
  ["100.64.0.0", 10, "a shared (CGNAT) address"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address"],
  ["172.16.0.0", 12, "a private address"],
  ["192.0.0.0", 24, "a reserved address"],
  ["192.0.2.0", 24, "a documentation address"],
  ["192.88.99.0", 24, "a reserved address"],
  ["192.168.0.0", 16, "a private address"],
  ["198.18.0.0", 15, "a benchmarking address"],
  ["198.51.100.0", 24, "a documentation address"],
  ["203.0.113.0", 24, "a documentation address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["240.0.0.0", 4, "a reserved address"],
];

function ipv4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Reason(address: string): string | null {
  const n = ipv4Number(address);
  for (const [base, prefix, label] of ipv4Ranges) {
    const size = 2 ** (32 - prefix);
    const start = ipv4Number(base);
    if (n >= start && n < start + size) return label;
  }
  return null;
}

/** 16 bytes of an IPv6 address (with an optional trailing dotted quad and zone id), or null. */
export function ipv6Bytes(text: string): Uint8Array | null {
  const address = text.split("%")[0]!;
  if (!isIPv6(address)) return null;
  let groupsText = address;
  const tail: number[] = [];
  const lastColon = address.lastIndexOf(":");
  const last = address.slice(lastColon + 1);
  if (last.includes(".")) {
    const o = last.split(".").map(Number) as [number, number, number, number];
    tail.push((o[0] << 8) | o[1], (o[2] << 8) | o[3]);
    groupsText = address.slice(0, lastColon + 1);
    if (!groupsText.endsWith("::")) groupsText = groupsText.slice(0, -1);
  }
  const hex = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  let groups: number[];
  if (groupsText.includes("::")) {
    const [left, right] = groupsText.split("::");
    const head = hex(left);
    const rest = [...hex(right), ...tail];
    groups = [...head, ...Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  } else {
    groups = [...hex(groupsText), ...tail];
  }
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const embeddedIpv4 = (bytes: Uint8Array, offset: number) => Array.from(bytes.slice(offset, offset + 4)).join(".");

function ipv6Reason(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return "an invalid address";
  const zeros = (n: number) => bytes.slice(0, n).every((b) => b === 0);
  if (zeros(16)) return "an unspecified address";
  if (zeros(15) && bytes[15] === 1) return "a loopback address";
  // IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4
  // 2002::/16) reaches the IPv4 address, so it is judged as that address.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4Reason(embeddedIpv4(bytes, 12));
  if (zeros(12)) return ipv4Reason(embeddedIpv4(bytes, 12)) ?? "a reserved address";
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && bytes.slice(4, 12).every((b) => b === 0)) return ipv4Reason(embeddedIpv4(bytes, 12));
  if (startsWith(bytes, [0x20, 0x02])) return ipv4Reason(embeddedIpv4(bytes, 2));
  // fd00:ec2::254, the AWS metadata service over IPv6 (inside unique-local, named for the message)
  if (startsWith(bytes, [0xfd, 0x00, 0x0e, 0xc2]) && bytes.slice(4, 14).every((b) => b === 0) && bytes[14] === 0x02 && bytes[15] === 0x54) {
    return "a cloud metadata address";
  }
  if ((bytes[0]! & 0xfe) === 0xfc) return "a unique-local address";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return "a link-local address";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return "a site-local address";
  if (bytes[0] === 0xff) return "a multicast address";
  // Global unicast is 2000::/3; inside it, 2001::/23 holds Teredo and other special-purpose
  // blocks, 2001:db8::/32 and 3fff::/20 are documentation.
  if ((bytes[0]! & 0xe0) !== 0x20) return "a reserved address";
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && (bytes[2]! & 0xfe) === 0x00) return "a special-purpose address";
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return "a documentation address";
  if (bytes[0] === 0x3f && bytes[1] === 0xff && (bytes[2]! & 0xf0) === 0x00) return "a documentation address";
  return null;
}

/** Why an IP address is not a public internet address, or null when it is. */
export function nonPublicReason(address: string): string | null {
  if (isIPv4(address)) return ipv4Reason(address);
  if (isIPv6(address.split("%")[0]!)) return ipv6Reason(address);
  return "an invalid address";
}

/** The port a URL connects to. */
export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * Why `policy` refuses connecting to `address` for `url`, or null when it may. Public addresses
 * are always fine; loopback only where the policy allows it and not on the gateway's own ports.
 */
export function refusedAddressReason(address: string, url: URL, policy: UrlPolicy): string | null {
  const reason = nonPublicReason(address);
  if (!reason) return null;
  if (reason !== "a loopback address" || !policy.allowLoopback) return reason;
  const own = policy.ownServices?.get(effectivePort(url));
  if (own === undefined) return null;
  if (own !== null && url.pathname.startsWith(own)) return null;
  return "one of the gateway's own services";
}

/**
 * The addresses to connect to for `url` under `policy`: every resolved address must be allowed
 * (one private answer among public ones is still refused). The socket then connects to exactly
 * these, so the check and the connection cannot disagree.
 */
export async function resolveCheckedAddresses(url: URL, policy: UrlPolicy): Promise<ResolvedAddress[]> {
  const host = bareHostname(url);
  let addresses: ResolvedAddress[];
  if (isIPv4(host)) addresses = [{ address: host, family: 4 }];
  else if (isIPv6(host)) addresses = [{ address: host, family: 6 }];
  else {
    try {
      addresses = await resolver.lookupAll(host);
    } catch {
      throw new UnsafeUrlError(`The host ${host} could not be resolved.`, false);
    }
    if (addresses.length === 0) throw new UnsafeUrlError(`The host ${host} could not be resolved.`, false);
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address, url, policy);
    if (reason) {
      const via = address === host ? "" : ` (${host} resolves to ${address})`;
      const allowed = policy.allowLoopback ? "public or loopback (this machine)" : "public";
      throw new UnsafeUrlError(`The URL points to ${reason}${via}; webhook URLs must be ${allowed}.`);
    }
  }
  return addresses;
}

/** Whether any of the addresses is not a public internet address (a loopback receiver in the sandbox). */
export function anyNonPublic(addresses: ResolvedAddress[]): boolean {
  return addresses.some((a) => nonPublicReason(a.address) !== null);
}

/** Save-time check: throws UnsafeUrlError with a message fit for the API. Returns the normalised URL. */
export async function assertSafeWebhookUrl(raw: string, policy: UrlPolicy = currentUrlPolicy()): Promise<string> {
  const url = parseWebhookUrl(raw, policy);
  await resolveCheckedAddresses(url, policy);
  return url.toString();
}
