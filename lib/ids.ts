import { randomBytes, randomFillSync } from "node:crypto";
import { env } from "@/lib/env";

/** Every public identifier's prefix, in one place. */
const prefixes = {
  order: "ORD-",
  apiKey: env.GATEWAY_MODE === "live" ? "sk_live_" : "sk_test_",
  webhookSecret: "whsec_",
  event: "evt_",
  webhookMessage: "msg_",
  inbox: "inb_",
  paymentLink: "LNK-",
  payoutClaim: "CLM-",
  subscriptionPlan: "PLN-",
  subscription: "SUB-",
  invoice: "INV-",
} as const;

export type IdKind = keyof typeof prefixes;

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random bytes for public identifiers and order salts, drawn from a pool refilled 4 KiB at a time
 * from the CSPRNG, as node:crypto's randomUUID does: one system call per ~60 orders instead of two
 * per order (a getrandom call costs ~15 µs on this VM). Each byte is handed out once. Secrets (API
 * keys, webhook secrets) keep their own randomBytes call.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

export function randomBytesPooled(size: number): Buffer {
  if (size > 256) return randomBytes(size);
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  pool.fill(0, poolOffset, poolOffset + size);
  poolOffset += size;
  return out;
}

/** Random base62 string built from `bytes` random bytes (rejection-free: bias < 2^-8 per char is avoided by 62-of-256 modulo with rejection). */
function randomBase62(length: number, source: (size: number) => Buffer = randomBytes): string {
  let out = "";
  while (out.length < length) {
    for (const byte of source(length * 2)) {
      if (byte < 248) out += base62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A new prefixed identifier. Secrets (`apiKey`) carry 43 base62 chars ≈ 256 bits;
 * webhook secrets follow the Standard Webhooks form `whsec_` + base64 of 32 random bytes.
 */
export function newId(kind: IdKind): string {
  switch (kind) {
    case "order":
      return prefixes.order + randomBase62(16, randomBytesPooled);
    case "paymentLink":
    case "subscriptionPlan":
    case "subscription":
      return prefixes[kind] + randomBase62(16, randomBytesPooled);
      return prefixes.paymentLink + randomBase62(16, randomBytesPooled);
    case "invoice":
      // The hosted page is public by this id: 22 base62 chars ≈ 131 bits, never guessed.
      return prefixes.invoice + randomBase62(22, randomBytesPooled);
    case "apiKey":
      return prefixes.apiKey + randomBase62(43);
    case "webhookSecret":
      return prefixes.webhookSecret + randomBytes(32).toString("base64");
    default:
      return prefixes[kind] + randomBase62(24);
  }
}

export const apiKeyPrefixes = ["sk_live_", "sk_test_"] as const;
export const webhookSecretPrefix = prefixes.webhookSecret;
