import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Checks a gateway webhook on its raw body, as the gateway's docs say (/docs/webhooks): both
 * signatures must match one of the endpoint's secrets, and `webhook-timestamp` must be within the
 * tolerance (a replay of an old delivery is refused). Only node:crypto.
 * - `x-webhook-signature`: hex HMAC-SHA256 of the body, keyed with the whole `whsec_…` string;
 * - `webhook-signature` (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed
 *   with the base64-decoded part after `whsec_`; several, space-separated, while a secret rotates.
 */

export type Headers = Record<string, string | string[] | undefined>;

export type Verification = { ok: true; webhookId: string } | { ok: false; reason: string };

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function verifyWithSecret(rawBody: Buffer, headers: Headers, secret: string, nowSeconds: number, toleranceSeconds: number): Verification {
  const hex = header(headers, "x-webhook-signature");
  if (!hex) return { ok: false, reason: "missing x-webhook-signature" };
  const expectedHex = createHmac("sha256", secret).update(rawBody).digest("hex");
  if (!safeEqual(expectedHex, hex.trim().toLowerCase())) return { ok: false, reason: "x-webhook-signature does not match" };

  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) return { ok: false, reason: "missing Standard Webhooks headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed webhook-timestamp" };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: "webhook-timestamp outside the tolerance (a replay?)" };
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]);
  const expected = `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
  const match = signatures.split(" ").some((candidate) => safeEqual(candidate, expected));
  return match ? { ok: true, webhookId: id } : { ok: false, reason: "webhook-signature does not match" };
}

/** Valid when both signatures verify with one of `secrets` (the endpoint's, and during a rotation its old one). */
export function verifyWebhook(rawBody: Buffer, headers: Headers, secrets: string[], toleranceSeconds: number, now = Date.now()): Verification {
  const nowSeconds = Math.floor(now / 1000);
  let first: Verification = { ok: false, reason: "no webhook secret configured" };
  for (const secret of secrets) {
    const result = verifyWithSecret(rawBody, headers, secret, nowSeconds, toleranceSeconds);
    if (result.ok) return result;
    if (first.ok === false && first.reason === "no webhook secret configured") first = result;
  }
  return first;
}

/** The raw body as Medusa hands it over: a Buffer, or a Buffer serialized through the event bus. */
export function rawBodyOf(rawData: unknown): Buffer | null {
  if (Buffer.isBuffer(rawData)) return rawData;
  if (typeof rawData === "string") return Buffer.from(rawData, "utf8");
  if (rawData instanceof Uint8Array) return Buffer.from(rawData);
  const serialized = rawData as { type?: unknown; data?: unknown } | null;
  if (serialized && serialized.type === "Buffer" && Array.isArray(serialized.data)) return Buffer.from(serialized.data as number[]);
  return null;
}
