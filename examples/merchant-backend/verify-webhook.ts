import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies a gateway webhook the way any merchant backend can: no gateway code, only node:crypto.
 * Both signatures are checked (docs: /docs/webhooks):
 * - `x-webhook-signature`: hex HMAC-SHA256 of the raw body, keyed with the whole `whsec_…` string;
 * - `webhook-signature` (Standard Webhooks): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed
 *   with the base64-decoded part after `whsec_`, with `webhook-timestamp` at most 5 minutes off.
 */

export const toleranceSeconds = 5 * 60;

export type Verification = { ok: true } | { ok: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyHexSignature(rawBody: string, signature: string | undefined, secret: string): boolean {
  if (!signature) return false;
  const expected = createHmac("sha256", secret).update(rawBody, "utf8").digest("hex");
  return safeEqual(expected, signature.trim().toLowerCase());
}

export function verifyStandardSignature(rawBody: string, headers: Headers, secret: string, now = Date.now()): Verification {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) return { ok: false, reason: "missing Standard Webhooks headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed webhook-timestamp" };
  if (Math.abs(Math.floor(now / 1000) - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: "stale webhook-timestamp" };
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const expected = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`, "utf8").digest("base64")}`;
  // Several signatures, space-separated, while the gateway rolls a secret over: one must match.
  const match = signatures.split(" ").some((candidate) => safeEqual(candidate, expected));
  return match ? { ok: true } : { ok: false, reason: "webhook-signature does not match" };
}

/** Both signatures must verify. */
export function verifyWebhook(rawBody: string, headers: Headers, secret: string, now = Date.now()): Verification {
  if (!verifyHexSignature(rawBody, header(headers, "x-webhook-signature"), secret)) return { ok: false, reason: "x-webhook-signature does not match" };
  return verifyStandardSignature(rawBody, headers, secret, now);
}
